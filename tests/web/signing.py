"""Helpers of the sign-in tests: a form's CSRF value, and signing a test client in."""

from __future__ import annotations

import re
from typing import Any

from starlette.testclient import TestClient

from arena.web.signer import SESSION_COOKIE


def csrf_of(html: str, form_id: str = "") -> str:
    """The CSRF value of the form of that id (the page's first form's if none is named)."""
    if form_id:
        html = html.split(f'id="{form_id}"', 1)[-1]
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, "the page has no form with a CSRF token"
    return found.group(1)


def try_sign_in(web: TestClient, token: str, next_path: str = "/") -> Any:
    """POST the sign-in form as a browser would (after loading it), without following."""
    form = web.get("/sign-in")
    data = {"csrf": csrf_of(form.text, "signin-form"), "token": token, "next": next_path}
    return web.post("/sign-in", data=data, follow_redirects=False)


def sign_in(web: TestClient, token: str) -> str:
    """Sign `web` in; the new session id."""
    got = try_sign_in(web, token)
    assert got.status_code == 303, got.text
    found = re.search(rf"{SESSION_COOKIE}=([^;]+)", got.headers["set-cookie"])
    assert found, "the sign-in set no session cookie"
    return found.group(1)
