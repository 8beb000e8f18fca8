"""The organiser's ladder flow in a real browser (Debian's chromium driven by Playwright) on a
real uvicorn: sign in, fill the New ladder form (a refusal first), create, choose its bots.
Screenshots go to tests/artifacts/web/."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis
from playwright.sync_api import Page

from arena.store.ladders import LadderStore
from arena.web.app import create_app
from arena.web.signer import WebSettings
from tests.web.browser import serve

pytestmark = pytest.mark.timeout(120)

ADMIN = "browser-organiser-token"


def test_organiser_creates_a_ladder_and_chooses_its_bots(
    page: Page, artifacts: Path, redis_client: redis.Redis
) -> None:
    with serve(create_app(redis_client, WebSettings(ADMIN))) as server:
        page.goto(server.url + "/ladders")
        page.click("#sign-in")
        page.fill("#token", ADMIN)
        page.click("#signin-form button[type=submit]")
        page.click("#new-ladder")
        page.fill("#name", "club")
        page.fill("#bots", "random, greedy, ghost")
        page.click("#create")
        assert page.inner_text("#form-error").startswith("unknown built-in bot 'ghost'")
        page.screenshot(path=artifacts / "form-refused.png", full_page=True)

        page.fill("#bots", "random, greedy")
        page.select_option("#players", "4")
        page.click("#create")
        page.wait_for_selector("#ladder-actions")
        assert page.url == server.url + "/ladders/caper.v1.club"
        assert page.inner_text("#notice").startswith("Created ladder club (caper rules v1)")
        page.screenshot(path=artifacts / "created.png", full_page=True)

        page.fill("#bots", "search#8, random")
        page.click("#set-bots")
        page.wait_for_selector("#notice:has-text('plays')")
        assert page.inner_text("#notice") == "Ladder club (caper rules v1) plays: search#8, random."
        assert LadderStore(redis_client).find("club").bots == ("search#8", "random")
        page.click("#stop")
        page.wait_for_selector("#notice.error")
        assert "it has not started; nothing to stop" in page.inner_text("#notice")
        page.screenshot(path=artifacts / "bots-chosen.png", full_page=True)
