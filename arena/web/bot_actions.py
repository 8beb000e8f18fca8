"""What a bot's owner (or the organiser) does to it from the bots page: rotate its token, or
revoke it.

The new token is the answer to the POST, shown once and never cached; an owner who rotated
their own bot's token is signed in again with the new one (a new session id).
"""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from arena.services import bots as bot_service
from arena.services import signin
from arena.store.bots import BotInfo, BotRegistry
from arena.store.web_sessions import OWNER, WebSession
from arena.web import links, signer
from arena.web.render import NotFound, page, store_client

NO_STORE = {"Cache-Control": "no-store"}


def routes() -> list[Route]:
    return [
        Route("/bots/{name}/rotate-token", rotate_token, methods=["POST"]),
        Route("/bots/{name}/revoke", revoke, methods=["POST"]),
    ]


async def _managed_bot(request: Request, doing: str) -> tuple[WebSession, BotInfo]:
    """The signer and the bot named in the URL, which they may manage; else the sign-in page,
    a 403 or a 404."""
    form = await signer.read_form(request)
    session = signer.require_signer(request, form)
    name = request.path_params["name"]
    bot = BotRegistry(store_client(request)).by_name(name)
    if bot is None:
        raise NotFound(f"there is no bot named {name!r}")
    if not signin.may_manage_bot(session, bot.bot_id):
        raise HTTPException(403, f"only {name}'s owner or the organiser may {doing}")
    if bot.revoked is not None:
        raise HTTPException(409, f"bot {name} was revoked")
    return session, bot


async def revoke(request: Request) -> Response:
    session, bot = await _managed_bot(request, "revoke it")
    client = store_client(request)
    bot_service.revoke(client, bot.name)
    response = RedirectResponse(links.bots_url(), status_code=303)
    if session.role == OWNER:  # their session ended with the token: say so by signing out
        signin.sign_out(client, session.session_id)
        response.delete_cookie(signer.SESSION_COOKIE, path="/")
    return response


async def rotate_token(request: Request) -> Response:
    session, bot = await _managed_bot(request, "rotate its token")
    client = store_client(request)
    bot, token = bot_service.rotate_token(client, bot.name)
    shown = {"bot": bot, "token": token, "rotated": True}
    response = page(request, "registered.html", shown, headers=NO_STORE)
    if session.role == OWNER:
        renewed = signin.renew_owner(client, session, token)
        signer.set_cookie(request, response, signer.SESSION_COOKIE, renewed.session_id)
    return response
