"""What a bot's owner (or the organiser) does to it from the bots page: rotate its token.

The new token is the answer to the POST, shown once and never cached; an owner who rotated
their own bot's token is signed in again with the new one (a new session id).
"""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from arena.services import bots as bot_service
from arena.services import signin
from arena.store.bots import BotRegistry
from arena.store.web_sessions import OWNER
from arena.web import signer
from arena.web.render import NotFound, page, store_client

NO_STORE = {"Cache-Control": "no-store"}


def routes() -> list[Route]:
    return [Route("/bots/{name}/rotate-token", rotate_token, methods=["POST"])]


async def rotate_token(request: Request) -> Response:
    form = await signer.read_form(request)
    session = signer.require_signer(request, form)
    client = store_client(request)
    name = request.path_params["name"]
    bot = BotRegistry(client).by_name(name)
    if bot is None:
        raise NotFound(f"there is no bot named {name!r}")
    if not signin.may_manage_bot(session, bot.bot_id):
        raise HTTPException(403, f"only {name}'s owner or the organiser may rotate its token")
    bot, token = bot_service.rotate_token(client, name)
    shown = {"bot": bot, "token": token, "rotated": True}
    response = page(request, "registered.html", shown, headers=NO_STORE)
    if session.role == OWNER:
        renewed = signin.renew_owner(client, session, token)
        signer.set_cookie(request, response, signer.SESSION_COOKIE, renewed.session_id)
    return response
