"""The home page: what is running, the ladders and the bots, each linked to its page."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from arena.services import bots as bot_service
from arena.store.ladders import LadderStore
from arena.web import ladder_views
from arena.web import tournaments as tournament_pages
from arena.web.render import page, store_client


def home(request: Request) -> Response:
    client = store_client(request)
    registered, online = bot_service.counts(client)
    context = {
        "tournaments": tournament_pages.summaries(client),
        "ladders": [ladder_views.summary(client, d) for d in LadderStore(client).all()],
        "bots": registered,
        "online": online,
    }
    return page(request, "index.html", context)
