"""A one-time notice carried across a POST's 303 redirect: what the action did, or why it was
refused, shown once on the page it leads to.

It travels in a short-lived cookie (HttpOnly, SameSite=Strict), never in the URL, so a link
from elsewhere cannot make the site show a message of its choosing.
"""

from __future__ import annotations

from urllib.parse import quote, unquote

from starlette.requests import Request
from starlette.responses import Response

NOTICE_COOKIE = "arena_notice"
NOTICE_TTL_S = 60  # it is read by the very next page load
NOTICE_LIMIT = 500  # characters: a service message is a line or two
REFUSED_PREFIX = "!"  # marks a refusal, shown as an error


def set_notice(
    response: Response, message: str, refused: bool = False, secure: bool = False
) -> None:
    text = (REFUSED_PREFIX if refused else "") + message[:NOTICE_LIMIT]
    response.set_cookie(
        NOTICE_COOKIE,
        quote(text, safe=""),
        max_age=NOTICE_TTL_S,
        path="/",
        secure=secure,
        httponly=True,
        samesite="strict",
    )


def read_notice(request: Request) -> tuple[str, bool] | None:
    """The notice this request carries, and whether it is a refusal; None without one."""
    raw = request.cookies.get(NOTICE_COOKIE)
    if not raw:
        return None
    text = unquote(raw)[: NOTICE_LIMIT + 1]
    refused = text.startswith(REFUSED_PREFIX)
    return text.removeprefix(REFUSED_PREFIX), refused


def clear_notice(request: Request, response: Response) -> None:
    """Shown once: the page that showed it deletes it."""
    if NOTICE_COOKIE in request.cookies:
        response.delete_cookie(NOTICE_COOKIE, path="/")
