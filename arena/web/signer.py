"""Who is signed in to the site: the session cookie, its settings, and the CSRF checks.

The session cookie is HttpOnly and SameSite=Strict, Secure over TLS or when the site is told
it is behind a proxy that ends TLS (`arena web --behind-tls`). Every state-changing request is
a POST carrying a CSRF token: the session's, or, before anyone signs in (the sign-in and
registration forms), the value of a form cookie repeated in the form.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit

import redis
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from arena.services import signin
from arena.store.web_sessions import SESSION_TTL_S, WebSession

SESSION_COOKIE = "arena_session"
FORM_COOKIE = "arena_form"  # the CSRF token of forms sent before a session exists
CSRF_FIELD = "csrf"
FORM_LIMIT_BYTES = 64 * 1024  # the site's forms are a few short fields
Form = dict[str, str]


@dataclass(frozen=True, slots=True)
class WebSettings:
    admin_token: str | None = None  # None: nobody can sign in as the organiser
    behind_tls: bool = False  # a proxy in front ends TLS: cookies are Secure all the same
    open_registration: bool = False  # anyone may register a bot


class SignInNeeded(Exception):
    """The request needs a signed-in person; the site answers with the sign-in page."""


def settings(request: Request) -> WebSettings:
    found: WebSettings = request.app.state.settings
    return found


def current(request: Request) -> WebSession | None:
    """The signed-in session of this request, if any (read once per request)."""
    if not hasattr(request.state, "signer"):
        session_id = request.cookies.get(SESSION_COOKIE, "")
        client: redis.Redis = request.app.state.redis
        request.state.signer = signin.session(client, session_id) if session_id else None
    found: WebSession | None = request.state.signer
    return found


def shown_signer(request: Request) -> WebSession | None:
    """`current`, for page headers: a store that cannot be reached shows nobody signed in."""
    try:
        return current(request)
    except redis.RedisError:
        return None


def same(expected: str, given: str | None) -> bool:
    """Constant-time comparison of a CSRF token with what a form sent."""
    return (
        bool(expected)
        and given is not None
        and hmac.compare_digest(expected.encode(), given.encode())
    )


async def read_form(request: Request) -> Form:
    """A POSTed form's fields (application/x-www-form-urlencoded, the only kind the site's
    forms send; the first of a repeated field counts)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip()
    body = await request.body()
    if kind != "application/x-www-form-urlencoded" or len(body) > FORM_LIMIT_BYTES:
        return {}
    fields: Form = {}
    for name, value in parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True):
        fields.setdefault(name, value)
    return fields


def require_signer(request: Request, form: Form) -> WebSession:
    """The session of a state-changing request with its CSRF token checked: SignInNeeded
    without one, 403 with a missing or wrong token."""
    signer = current(request)
    if signer is None:
        raise SignInNeeded
    if not same(signer.csrf, form.get(CSRF_FIELD)):
        raise HTTPException(403, "this form's CSRF token is missing or stale: reload the page")
    return signer


def require_form_cookie(request: Request, form: Form) -> None:
    """403 unless the form repeats the form cookie (the sign-in and registration forms)."""
    if not same(request.cookies.get(FORM_COOKIE, ""), form.get(CSRF_FIELD)):
        raise HTTPException(403, "this form's CSRF token is missing or stale: reload the page")


def form_token(request: Request) -> str:
    """The form cookie's value, or a new one (`set_cookies` sends it)."""
    return request.cookies.get(FORM_COOKIE) or secrets.token_urlsafe(32)


def secure(request: Request) -> bool:
    return request.url.scheme == "https" or settings(request).behind_tls


def set_cookie(request: Request, response: Response, name: str, value: str) -> None:
    response.set_cookie(
        name,
        value,
        max_age=SESSION_TTL_S,
        path="/",
        secure=secure(request),
        httponly=True,
        samesite="strict",
    )


def safe_next(target: object) -> str:
    """A local path to go to after signing in; anything else (another host, a scheme,
    '//host', a backslash, control characters) is the overview."""
    if not isinstance(target, str) or not target.startswith("/") or target.startswith("//"):
        return "/"
    if "\\" in target or any(ord(c) < 0x21 or ord(c) == 0x7F for c in target):
        return "/"
    parts = urlsplit(target)
    return "/" if parts.scheme or parts.netloc else target
