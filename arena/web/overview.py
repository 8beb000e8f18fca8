"""The home page: what is running, the ladders and the bots, each linked to its page."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from arena.store.bots import BotRegistry
from arena.store.ladders import LadderStore
from arena.web import ladder_views
from arena.web import tournaments as tournament_pages
from arena.web.render import page, store_client


def home(request: Request) -> Response:
    client = store_client(request)
    registry = BotRegistry(client)
    bots = registry.all()
    context = {
        "tournaments": tournament_pages.summaries(client),
        "ladders": [ladder_views.summary(client, d) for d in LadderStore(client).all()],
        "bots": len(bots),
        "online": sum(1 for b in bots if registry.is_online(b.bot_id)),
    }
    return page(request, "index.html", context)
