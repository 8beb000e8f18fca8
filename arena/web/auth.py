"""Signing in and out, and open registration (`arena web --open-registration`).

Tokens arrive in POSTed forms only, never in a URL; the page that shows a new bot's token is
the answer to that POST, never cached, and the token is shown there once.
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from arena.services import bots as bot_service
from arena.services import signin
from arena.store.bots import BotRegistryError
from arena.web import links, signer
from arena.web.render import page, store_client

NO_STORE = {"Cache-Control": "no-store"}


def routes() -> list[Route]:
    return [
        Route(links.sign_in_url(), sign_in_page, methods=["GET"]),
        Route(links.sign_in_url(), sign_in, methods=["POST"]),
        Route(links.sign_out_url(), sign_out, methods=["POST"]),
        Route(links.register_url(), register_page, methods=["GET"]),
        Route(links.register_url(), register, methods=["POST"]),
    ]


def sign_in_redirect(request: Request, target: str) -> Response:
    """303 to the sign-in page, which comes back to `target` (a local path) once signed in."""
    return RedirectResponse(links.sign_in_url(signer.safe_next(target)), status_code=303)


async def sign_in_page(request: Request) -> Response:
    target = signer.safe_next(request.query_params.get("next"))
    return _form_page(request, "signin.html", _sign_in_context(request, target, ""))


def _sign_in_context(request: Request, target: str, error: str) -> dict[str, object]:
    registration = signer.settings(request).open_registration
    return {"next": target, "error": error, "open_registration": registration}


async def sign_in(request: Request) -> Response:
    form = await signer.read_form(request)
    signer.require_form_cookie(request, form)
    target = signer.safe_next(form.get("next"))
    address = request.client.host if request.client else "unknown"
    try:
        session = signin.sign_in(
            store_client(request),
            form.get("token", ""),
            signer.settings(request).admin_token,
            address,
        )
    except signin.SignInRefused as refused:
        context = _sign_in_context(request, target, str(refused))
        return _form_page(request, "signin.html", context, status_code=403)
    response = RedirectResponse(target, status_code=303)
    signer.set_cookie(request, response, signer.SESSION_COOKIE, session.session_id)
    return response


async def sign_out(request: Request) -> Response:
    form = await signer.read_form(request)
    session = signer.require_signer(request, form)
    signin.sign_out(store_client(request), session.session_id)
    response = RedirectResponse(links.home_url(), status_code=303)
    response.delete_cookie(signer.SESSION_COOKIE, path="/")
    return response


async def register_page(request: Request) -> Response:
    _require_open_registration(request)
    return _form_page(request, "register.html", {"error": "", "name": ""})


async def register(request: Request) -> Response:
    _require_open_registration(request)
    form = await signer.read_form(request)
    signer.require_form_cookie(request, form)
    name = form.get("name", "").strip()
    try:
        bot, token = bot_service.register(store_client(request), name)
    except BotRegistryError as error:
        context: dict[str, object] = {"error": str(error), "name": name}
        return _form_page(request, "register.html", context, status_code=400)
    shown = {"bot": bot, "token": token}
    return page(request, "registered.html", shown, headers=NO_STORE)


def _require_open_registration(request: Request) -> None:
    if not signer.settings(request).open_registration:
        raise HTTPException(404, "registration is closed: ask the arena's organiser for a bot")


def _form_page(
    request: Request, template: str, context: Mapping[str, object], status_code: int = 200
) -> Response:
    """A form sent before anyone signs in: it carries the form cookie's value as its CSRF."""
    token = signer.form_token(request)
    response = page(request, template, {**context, "form_csrf": token}, status_code)
    signer.set_cookie(request, response, signer.FORM_COOKIE, token)
    response.headers.update(NO_STORE)
    return response
