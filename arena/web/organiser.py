"""What the organiser's forms on the site share: the check that the signer is the organiser,
fields read as the CLI's options read them, and the 303 back to a page with the outcome.

The rules themselves are the services' (`arena.services`): a form only turns text into the
values the CLI would pass, and a refusal is the service's `ValueError`, shown as it is.
"""

from __future__ import annotations

import math

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from arena.services.events import event_seed
from arena.store.web_sessions import ORGANISER, WebSession
from arena.web import signer
from arena.web.notice import set_notice

NO_STORE = {"Cache-Control": "no-store"}  # a form page carries the session's CSRF token
CHECKED = "on"  # what a ticked checkbox sends


def require(session: WebSession | None, doing: str) -> WebSession:
    """The organiser's session: the sign-in page without one, a 403 for anyone else."""
    if session is None:
        raise signer.SignInNeeded
    if session.role != ORGANISER:
        raise HTTPException(403, f"only the organiser may {doing}")
    return session


async def signed_form(request: Request, doing: str) -> tuple[WebSession, signer.Form]:
    """A POSTed form with its CSRF token checked, sent by the organiser."""
    form = await signer.read_form(request)
    return require(signer.require_signer(request, form), doing), form


def whole_number(text: str, field: str) -> int | None:
    """A blank field is the service's default; anything else must be a whole number."""
    text = text.strip()
    if not text:
        return None
    if not text.isdigit():
        raise ValueError(f"{field} must be a whole number, not {text!r}")
    return int(text)


def number(text: str, field: str) -> float:
    """A decimal number, as the CLI's float options take it (a sign and an exponent too)."""
    try:
        value = float(text.strip())
    except ValueError:
        raise ValueError(f"{field} must be a number, not {text!r}") from None
    if not math.isfinite(value):
        raise ValueError(f"{field} must be a finite number, not {text!r}")
    return value


def seed(text: str) -> int:
    """The event's seed: a fresh one when left blank, as the CLI's `--seed`."""
    return event_seed(whole_number(text, "seed"))


def back_to(request: Request, url: str, message: str, refused: bool = False) -> Response:
    """303 to `url`, which shows `message` once (as a refusal if `refused`)."""
    response = RedirectResponse(url, status_code=303)
    set_notice(response, message, refused, signer.secure(request))
    return response
