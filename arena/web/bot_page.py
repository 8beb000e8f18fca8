"""One bot's page: whether it is registered or revoked, connected, offline or hosted, what its
last Hello said, a hosted bot's versions, its recent matches (as the bots page lists them), its
rating on every ladder it played, and head to head against its recent opponents. Its owner and
the organiser also see the forms that rotate its token and revoke it.

Never a token or a token hash: `BotDetail` carries neither.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from arena.services import bots as bot_service
from arena.services import signin
from arena.web import bot_views as views
from arena.web import ladder_views, signer
from arena.web.bots import played_matches
from arena.web.render import NotFound, page, store_client


def routes() -> list[Route]:
    return [Route("/bots/{name}", bot_page, methods=["GET"])]


def bot_page(request: Request) -> Response:
    client = store_client(request)
    name = request.path_params["name"]
    found = bot_service.detail(client, name)
    if found is None:
        raise NotFound(f"there is no bot named {name!r}: see the bots page for every bot")
    bot, hosted = found.listed.info, found.listed.hosted
    (row,) = views.rows(
        [bot],
        {bot.bot_id: found.listed.online},
        {bot.bot_id: found.version},
        {bot.bot_id: found.games},
        played_matches(client, [bot.name]),
        {bot.bot_id: hosted} if hosted else None,
    )
    session = signer.current(request)
    context = {
        "bot": row,
        "played": found.played,
        "ratings": ladder_views.bot_ratings(bot.name, bot_service.ratings(client, bot.name)),
        "opponents": views.opponents(row.recent),
        "manages": session is not None and signin.may_manage_bot(session, bot.bot_id),
    }
    return page(request, "bot.html", context)
