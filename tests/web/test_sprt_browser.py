"""An SPRT test started in a real browser (Debian's chromium driven by Playwright) on a real
uvicorn: the organiser signs in, fills the New SPRT test form (a refusal first), starts a test
of built-in bots, and watches its LLR chart grow as a real worker process plays the pairs,
without reloading the page. Screenshots go to tests/artifacts/web/."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis
from playwright.sync_api import Page

from arena.store.sprt import SprtStore
from arena.web.app import create_app
from arena.web.signer import WebSettings
from tests.web.browser import serve
from tests.workers.conftest import StartWorker

pytestmark = pytest.mark.timeout(300)

ADMIN = "browser-organiser-token"
PAIRS = 6  # a pair of these bots takes a second or two: the page polls several times meanwhile
LIVE_WAIT_MS = 180_000  # generous on a busy machine
LLR_POINTS = (
    "(document.querySelector('#llr-chart polyline.llr') || {getAttribute: () => ''})"
    ".getAttribute('points').split(' ').filter(Boolean).length"
)


def test_organiser_starts_an_sprt_and_watches_its_llr_chart_grow(
    page: Page, artifacts: Path, redis_client: redis.Redis, start_worker: StartWorker
) -> None:
    with serve(create_app(redis_client, WebSettings(ADMIN))) as server:
        page.goto(server.url + "/sprt")
        assert page.locator("#new-sprt").count() == 0  # nobody signed in yet
        page.click("#sign-in")
        page.fill("#token", ADMIN)
        page.click("#signin-form button[type=submit]")
        page.click("#new-sprt")
        page.fill("#name", "search-16-vs-8")
        page.fill("#test", "search#16")
        page.fill("#base", "search#16")
        page.click("#start")
        assert page.inner_text("#form-error") == (
            "the test and base bots must differ (both are 'search#16')"
        )
        page.screenshot(path=artifacts / "form-refused.png", full_page=True)

        page.fill("#base", "search#8")
        page.fill("#max_pairs", str(PAIRS))
        page.fill("#batch_pairs", "1")
        page.fill("#parallel", "1")
        page.click("#start")
        page.wait_for_selector("#sprt-actions")
        assert page.url == server.url + "/sprt/search-16-vs-8"
        assert page.inner_text("#notice").startswith("SPRT search-16-vs-8 started: search#16")
        assert page.inner_text("#status") == "running" and page.inner_text("#pairs") == (
            f"0 of at most {PAIRS}"
        )
        page.evaluate("window.notReloaded = true")
        page.screenshot(path=artifacts / "started.png", full_page=True)

        start_worker("sprt-browser")
        page.wait_for_function(f"{LLR_POINTS} >= 2", timeout=LIVE_WAIT_MS)
        growing = page.evaluate(LLR_POINTS)
        page.screenshot(path=artifacts / "growing.png", full_page=True)
        page.wait_for_function(  # set once the figures of the last change are swapped in
            "document.getElementById('progress-card').dataset.status === 'finished'",
            timeout=LIVE_WAIT_MS,
        )
        page.wait_for_function(f"{LLR_POINTS} > {growing}", timeout=LIVE_WAIT_MS)
        assert page.evaluate("window.notReloaded") is True  # it grew in place
        status = SprtStore(redis_client).status("search-16-vs-8")
        assert page.inner_text("#status") == status.state.value  # capped, or decided sooner
        assert page.inner_text("#pairs") == f"{status.pairs} of at most {PAIRS}"
        assert page.inner_text("#llr") == f"{status.llr:.3f}"
        cells = page.locator("#pentanomial tbody td").all_inner_texts()
        assert [int(c) for c in cells] == list(status.counts)
        assert page.evaluate(LLR_POINTS) == len(
            SprtStore(redis_client).history(status.definition.name)
        )
        page.screenshot(path=artifacts / "finished.png", full_page=True)
