"""The organiser's event flow in a real browser (Debian's chromium driven by Playwright) on a
real uvicorn: sign in, fill the New tournament form (a refusal first), create, start,
withdraw an entrant.
Screenshots go to tests/artifacts/web/."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis
from playwright.sync_api import Page

from arena.store.job_queue import arena_queue
from arena.store.tournaments import Status, TournamentStore
from arena.web.app import create_app
from arena.web.signer import WebSettings
from tests.web.browser import serve

pytestmark = pytest.mark.timeout(120)

ADMIN = "browser-organiser-token"


def test_organiser_signs_in_creates_a_swiss_starts_it_and_withdraws_one(
    page: Page, artifacts: Path, redis_client: redis.Redis
) -> None:
    with serve(create_app(redis_client, WebSettings(ADMIN))) as server:
        page.goto(server.url + "/tournaments")
        assert page.locator("#new-tournament").count() == 0  # nobody signed in yet
        page.click("#sign-in")
        page.fill("#token", ADMIN)
        page.click("#signin-form button[type=submit]")
        page.click("#new-tournament")
        page.fill("#name", "spring-cup")
        page.select_option("#format", "swiss")
        page.fill("#rounds", "2")
        page.fill("#entrants", "random, greedy, search@5, ghost")
        page.click("#create")
        error = page.inner_text("#form-error")
        assert error.startswith("unknown entrant(s): ghost")
        assert page.input_value("#entrants") == "random, greedy, search@5, ghost"
        page.screenshot(path=artifacts / "form-refused.png", full_page=True)

        page.fill("#entrants", "random, greedy, search@5, search@10")
        page.click("#create")
        page.wait_for_selector("#event-actions")
        assert page.url == server.url + "/tournaments/spring-cup"
        assert page.inner_text("#notice") == "Created swiss spring-cup: 4 entrants, 2 rounds."
        assert page.inner_text("#status") == "created"
        page.screenshot(path=artifacts / "created.png", full_page=True)

        page.click("#start")
        page.wait_for_selector("#notice:has-text('Started')")
        assert page.inner_text("#notice") == (
            "Started spring-cup: 1 round(s) scheduled; workers play them."
        )
        assert page.inner_text("#status") == "running"
        assert TournamentStore(redis_client).status("spring-cup") is Status.RUNNING
        assert arena_queue(redis_client).count > 0
        page.screenshot(path=artifacts / "started.png", full_page=True)

        page.fill("#entrant", "greedy")
        page.click("#withdraw")  # the form's second button, posting to its own URL
        page.wait_for_selector("#notice:has-text('withdrew')")
        assert (
            page.inner_text("#notice") == "greedy withdrew from spring-cup; it is not paired again."
        )
        assert TournamentStore(redis_client).withdrawn("spring-cup") == frozenset({"greedy"})
        page.screenshot(path=artifacts / "withdrawn.png", full_page=True)
