"""The site: `create_app(redis_client)` builds the Starlette app every page and test uses.

Pages answer GET (and HEAD); what changes state is a POST by a signed-in person with the
session's CSRF token (arena/web/signer.py): without a session the sign-in page, without the
token or outside the signer's rights a 403. Unknown names give the 404 page, any other failure
the plain 500 page (never a traceback: Starlette's debug mode stays off), and a Redis that
cannot be reached a 503 page saying so.
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

import redis
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from arena.web import (
    auth,
    bot_actions,
    bot_page,
    bot_versions,
    bot_versions_api,
    bots,
    event_actions,
    head_to_head,
    ladder_actions,
    ladders,
    overview,
    sprt,
    sprt_actions,
    tournaments,
    workers,
)
from arena.web.fits import FitCache
from arena.web.render import HERE, NotFound, page
from arena.web.signer import SignInNeeded, WebSettings
from arena.web.timing import ServerTiming

log = logging.getLogger(__name__)

FAVICON = HERE / "static" / "favicon.svg"
REPLAY_MODULE = "arena.web.replay"  # the game pages (see arena/web/links.py, game_url)


def create_app(redis_client: redis.Redis, settings: WebSettings | None = None) -> Starlette:
    app = Starlette(
        routes=[
            Route("/", overview.home, methods=["GET"]),
            *auth.routes(),
            *tournaments.routes(),
            *event_actions.routes(),
            *ladders.routes(),
            *ladder_actions.routes(),
            *bots.routes(),
            *bot_actions.routes(),
            *bot_versions.routes(),
            *bot_versions_api.routes(),
            *bot_page.routes(),
            *head_to_head.routes(),
            *sprt.routes(),
            *sprt_actions.routes(),
            *workers.routes(),
            *replay_routes(),
            Route("/favicon.ico", favicon, methods=["GET"]),
            Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        ],
        middleware=[Middleware(ServerTiming)],
        exception_handlers={
            NotFound: not_found,
            SignInNeeded: sign_in_needed,
            HTTPException: http_error,
            redis.ConnectionError: store_unreachable,
            redis.TimeoutError: store_unreachable,
            Exception: server_error,
        },
    )
    app.state.redis = redis_client
    app.state.settings = settings or WebSettings()
    app.state.fits = FitCache()  # Bradley-Terry fits per tournament state (arena/web/fits.py)
    return app


async def favicon(request: Request) -> Response:
    """Browsers ask for /favicon.ico whatever the page links: the site's SVG icon answers."""
    return FileResponse(FAVICON, media_type="image/svg+xml")


def replay_routes() -> list[BaseRoute]:
    """The game pages' routes, when the replay module is installed."""
    try:
        module: Any = importlib.import_module(REPLAY_MODULE)
    except ModuleNotFoundError as error:
        if error.name != REPLAY_MODULE:
            raise  # the module is there but something it imports is not: say so
        return []
    found: list[BaseRoute] = module.routes()
    return found


async def not_found(request: Request, error: Exception) -> Response:
    return page(request, "error.html", _error(404, "Not found", str(error)), status_code=404)


async def sign_in_needed(request: Request, error: Exception) -> Response:
    """303 to the sign-in page, back to this page (a GET) or the overview once signed in."""
    target = request.url.path if request.method in ("GET", "HEAD") else "/"
    return auth.sign_in_redirect(request, target)


async def http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    code = error.status_code
    if code == 404:
        detail = f"there is no page at {request.url.path}"
        return page(request, "error.html", _error(404, "Not found", detail), status_code=404)
    if code == 405:
        detail = f"{request.url.path} does not answer {request.method} requests"
        heading = "Method not allowed"
        return page(request, "error.html", _error(405, heading, detail), status_code=405)
    if code == 403:
        detail = str(error.detail)
        return page(request, "error.html", _error(403, "Forbidden", detail), status_code=403)
    return page(request, "error.html", _error(code, "Error", str(error.detail)), status_code=code)


async def store_unreachable(request: Request, error: Exception) -> Response:
    log.warning("Redis unreachable serving %s: %s", request.url.path, error)
    detail = "the arena's Redis cannot be reached just now; try again in a moment"
    return page(request, "error.html", _error(503, "Store unreachable", detail), status_code=503)


async def server_error(request: Request, error: Exception) -> Response:
    log.exception("error serving %s", request.url.path, exc_info=error)
    detail = "something went wrong showing this page; the error is in the server's log"
    return page(request, "error.html", _error(500, "Server error", detail), status_code=500)


def _error(code: int, title: str, detail: str) -> dict[str, Any]:
    return {"code": code, "heading": title, "detail": detail}
