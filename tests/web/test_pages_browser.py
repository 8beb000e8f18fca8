"""The site's pages in a real browser (Debian's chromium driven by Playwright) served by a real
uvicorn on loopback, over a tournament played by real worker processes: the text shown is the
stored results, live pages update without a reload; screenshots go to tests/artifacts/web/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import redis
from playwright.sync_api import Page

from arena.services import events
from arena.store.ladders import LadderDefinition, LadderStore, ladder_ref
from arena.store.ratings import RatedResult, RatingStore
from arena.web.app import create_app
from tests.web.arena_fixtures import connected_sdk_bot, play_swiss
from tests.web.browser import serve
from tests.workers.conftest import StartWorker
from tests.workers.tournaments import create_and_start

pytestmark = pytest.mark.timeout(300)

LIVE_WAIT_MS = 180_000  # the worker plays the round robin meanwhile: generous on a busy machine


def texts(page: Page, selector: str) -> list[str]:
    return [" ".join(t.split()) for t in page.locator(selector).all_inner_texts()]


def rated_ladder(client: redis.Redis) -> str:
    definition = LadderDefinition(ladder_ref("main"))
    LadderStore(client).create(definition)
    ratings = RatingStore(client)
    for n, score in enumerate([1.0, 0.5, 1.0, 0.0, 1.0, 1.0], start=1):
        result = RatedResult(f"caper.v1.main.m{n}", "greedy", "random", score, 1.7e9 + 60 * n, 2)
        ratings.apply(definition, result)
    return definition.ref.slug


def test_every_page_shows_the_stored_results(
    page: Page,
    artifacts: Path,
    redis_client: redis.Redis,
    redis_server_url: str,
    start_worker: StartWorker,
    tmp_path: Path,
) -> None:
    with connected_sdk_bot(redis_client, redis_server_url, tmp_path):
        play_swiss(redis_client, start_worker)
    slug = rated_ladder(redis_client)
    stored = json.loads(events.export(redis_client, "cup", "json"))
    with serve(create_app(redis_client)) as server:
        page.goto(server.url + "/")
        assert "cup" in page.inner_text("#overview-tournaments")
        page.screenshot(path=artifacts / "overview.png", full_page=True)

        page.click("text=Tournaments")
        page.click("#tournaments >> text=cup")
        assert page.inner_text("#status") == "finished"
        entrants = texts(page, "#standings tbody tr td:nth-child(2)")
        points = texts(page, "#standings tbody tr td:nth-child(3)")
        assert list(zip(entrants, points, strict=True)) == [
            (s["entrant"], f"{s['points']:g}") for s in stored["standings"]
        ]
        assert len(texts(page, "#crosstable tbody tr")) == len(stored["standings"])
        for match in stored["matches"]:
            pairing = f"{match['seat0']} – {match['seat1']}"
            row = page.locator(f"#round-{match['round']}-table tr", has_text=pairing)
            shown = row.locator("td").nth(2).inner_text().strip()
            assert shown == "{:g} - {:g}".format(*match["game_points"])
        page.screenshot(path=artifacts / "tournament.png", full_page=True)

        page.goto(server.url + "/ladders")
        page.click(f"text={slug.split('.')[-1]}")
        bots = texts(page, "#ladder tbody tr td:nth-child(2)")
        board = RatingStore(redis_client).leaderboard(LadderStore(redis_client).get_slug(slug))
        assert bots == [name for name, _ in board]
        page.screenshot(path=artifacts / "ladder.png", full_page=True)
        page.click("#ladder >> text=greedy")
        assert page.locator("#chart svg polyline").count() == 2
        assert texts(page, "#history tbody tr td:first-child") == ["6", "5", "4", "3", "2", "1"]
        page.screenshot(path=artifacts / "ladder-bot.png", full_page=True)

        page.goto(server.url + "/bots")
        sdk = page.locator("#bots tr", has_text="sdk-bot")
        assert "cup round 3" in sdk.inner_text()
        page.screenshot(path=artifacts / "bots.png", full_page=True)

        page.goto(server.url + "/tournaments/nobody")
        assert "404" in page.inner_text("h1")
        assert "no tournament named 'nobody'" in page.inner_text("#error-detail")
        page.screenshot(path=artifacts / "not-found.png")


def test_a_running_tournament_updates_without_a_reload(
    page: Page, artifacts: Path, redis_client: redis.Redis, start_worker: StartWorker
) -> None:
    create_and_start(redis_client, "live", "round-robin", ["random", "greedy", "search#4"])
    with serve(create_app(redis_client)) as server:
        page.goto(server.url + "/tournaments/live")
        assert page.inner_text("#status") == "running"
        assert "0 of 3 scheduled matches played" in page.inner_text("#progress-text")
        page.evaluate("window.notReloaded = true")
        page.screenshot(path=artifacts / "live-before.png", full_page=True)
        start_worker("live-a")
        page.wait_for_function(
            "document.getElementById('status').textContent === 'finished'", timeout=LIVE_WAIT_MS
        )
        page.wait_for_function(
            "document.querySelectorAll('#round-1-table td.forfeit, #round-1-table .muted').length"
            " === 0",
            timeout=LIVE_WAIT_MS,
        )
        assert page.evaluate("window.notReloaded") is True  # updated in place
        assert "3 of 3 scheduled matches played" in page.inner_text("#progress-text")
        stored = json.loads(events.export(redis_client, "live", "json"))
        assert texts(page, "#standings tbody tr td:nth-child(2)") == [
            s["entrant"] for s in stored["standings"]
        ]
        page.screenshot(path=artifacts / "live-after.png", full_page=True)
