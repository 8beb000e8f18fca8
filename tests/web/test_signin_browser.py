"""Signing in and out in a real browser (Debian's chromium driven by Playwright) on a real
uvicorn: the organiser's token typed into the form, the header showing who is signed in, and
signing out ending the session in Redis. Screenshots go to tests/artifacts/web/."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis
from playwright.sync_api import Page

from arena.store import keys
from arena.web.app import create_app
from arena.web.signer import SESSION_COOKIE, WebSettings
from tests.web.browser import serve

pytestmark = pytest.mark.timeout(120)

ADMIN = "browser-organiser-token"


def test_organiser_signs_in_sees_it_and_signs_out(
    page: Page, artifacts: Path, redis_client: redis.Redis
) -> None:
    with serve(create_app(redis_client, WebSettings(ADMIN))) as server:
        page.goto(server.url + "/bots")
        page.click("#sign-in")
        page.fill("#token", ADMIN)
        page.screenshot(path=artifacts / "sign-in.png", full_page=True)
        page.click("#signin-form button[type=submit]")
        page.wait_for_selector("#signed-in")
        assert page.url == server.url + "/bots"  # back where the person was
        assert page.inner_text("#signed-in") == "Signed in as organiser"
        assert ADMIN not in page.content() and ADMIN not in page.url
        cookies = {c["name"]: c for c in page.context.cookies()}
        session = cookies[SESSION_COOKIE]
        assert session["httpOnly"] and session["sameSite"] == "Strict"
        assert redis_client.exists(keys.web_session(session["value"]))
        page.screenshot(path=artifacts / "signed-in.png", full_page=True)

        page.click("#sign-out")
        page.wait_for_selector("#sign-in")
        assert page.locator("#signed-in").count() == 0
        assert not redis_client.exists(keys.web_session(session["value"]))
        page.screenshot(path=artifacts / "signed-out.png", full_page=True)
