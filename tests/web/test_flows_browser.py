"""Two people's flows through the site in a real browser (Debian's chromium driven by Playwright)
on a real uvicorn, with a real SDK bot process connected over gRPC to a real gateway and real
worker processes playing:

- the organiser signs in, creates a Swiss of built-in bots and the SDK bot from the form, starts
  it, watches it finish without a reload, opens one of the SDK bot's games and lets it play;
- the SDK bot's owner signs in with its token, rotates it, sees the bot's stream closed (the bot
  is told why) and connects it again with the new token.

Screenshots go to tests/artifacts/web/<test name>/."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import redis
from playwright.sync_api import Page

from arena.store.bots import BotRegistry
from arena.store.tournaments import Status, TournamentStore
from arena.web.app import create_app
from arena.web.signer import WebSettings
from tests.web.arena_fixtures import SDK_BOT, connected_sdk_bot, sdk_bot_args
from tests.web.browser import serve
from tests.workers.conftest import StartWorker
from workers.processes import python_process

pytestmark = pytest.mark.timeout(400)

ADMIN = "flow-organiser-token"
FINISH_WAIT_MS = 240_000  # two workers play the Swiss meanwhile: generous on a busy machine
READY = "#replay[data-ready=true]"
STEP = "() => Number(document.getElementById('step-label').textContent.split(' ')[1])"


def sign_in(page: Page, url: str, token: str) -> None:
    page.goto(url + "/")
    page.click("#sign-in")
    page.fill("#token", token)
    page.click("#signin-form button[type=submit]")
    page.wait_for_selector("#signed-in")


def test_organiser_runs_a_swiss_with_an_sdk_bot_to_its_end_and_replays_a_game(
    page: Page,
    artifacts: Path,
    redis_client: redis.Redis,
    redis_server_url: str,
    start_worker: StartWorker,
    tmp_path: Path,
) -> None:
    start_worker("flow-a"), start_worker("flow-b")
    with (
        connected_sdk_bot(redis_client, redis_server_url, tmp_path),
        serve(create_app(redis_client, WebSettings(ADMIN))) as server,
    ):
        sign_in(page, server.url, ADMIN)
        page.goto(server.url + "/tournaments")
        page.click("#new-tournament")
        page.fill("#name", "flow-cup")
        page.select_option("#format", "swiss")
        page.fill("#entrants", f"random, greedy, search#4, {SDK_BOT}")
        page.screenshot(path=artifacts / "1-form.png", full_page=True)
        page.click("#create")
        page.wait_for_selector("#event-actions")
        assert page.inner_text("#notice") == "Created swiss flow-cup: 4 entrants, 2 rounds."
        page.click("#start")
        page.wait_for_selector("#notice:has-text('Started')")
        page.evaluate("window.notReloaded = true")
        page.screenshot(path=artifacts / "2-started.png", full_page=True)

        page.wait_for_function(
            "document.getElementById('status').textContent === 'finished'", timeout=FINISH_WAIT_MS
        )
        page.wait_for_selector("#round-2-table a")  # the second round's results swapped in
        assert page.evaluate("window.notReloaded") is True  # followed in place, never reloaded
        assert TournamentStore(redis_client).status("flow-cup") is Status.FINISHED
        assert "4 of 4 scheduled matches played" in page.inner_text("#progress-text")
        standings = page.locator("#standings tbody tr td:nth-child(2)").all_inner_texts()
        assert sorted(standings) == sorted(["random", "greedy", "search#4", SDK_BOT])
        page.screenshot(path=artifacts / "3-finished.png", full_page=True)

        page.locator("#round-1-table tr", has_text=SDK_BOT).locator("a").first.click()
        page.wait_for_selector(READY)
        assert SDK_BOT in (page.text_content("#players") or "")
        moves = int(page.text_content("#move-count") or "")
        page.select_option("#speed", "4")
        page.click("#play")
        page.wait_for_function(f"({STEP})() > 2")
        page.screenshot(path=artifacts / "4-autoplaying.png", full_page=True)
        page.wait_for_selector("#replay[data-playing=false]", timeout=120_000)
        assert page.text_content("#step-label") == f"Move {moves} / {moves}"
        page.screenshot(path=artifacts / "5-replayed.png", full_page=True)


def test_owner_rotates_the_token_sees_the_bot_dropped_and_reconnects_it(
    page: Page,
    artifacts: Path,
    redis_client: redis.Redis,
    redis_server_url: str,
    tmp_path: Path,
) -> None:
    registry = BotRegistry(redis_client)
    with (
        connected_sdk_bot(redis_client, redis_server_url, tmp_path) as bot,
        serve(create_app(redis_client, WebSettings(ADMIN))) as server,
    ):
        sign_in(page, server.url, bot.token)
        assert page.inner_text("#signed-in") == f"Signed in as owner of {SDK_BOT}"
        page.goto(server.url + "/bots")
        row = page.locator("#bots tr", has_text=SDK_BOT)
        assert "connected" in row.inner_text()
        page.screenshot(path=artifacts / "1-connected.png", full_page=True)

        row.locator("form.rotate button").click()
        new_token = page.inner_text("#new-token").strip()
        assert new_token and new_token != bot.token
        page.screenshot(path=artifacts / "2-new-token.png", full_page=True)

        # The gateway closes the old stream at its next heartbeat and tells the bot why: the
        # SDK stops with that message (it would only be refused reconnecting with the old one).
        assert bot.process.wait(timeout=30) != 0
        assert "this bot's token was rotated" in bot.log.read_text()
        page.goto(server.url + "/bots")
        assert "offline" in page.locator("#bots tr", has_text=SDK_BOT).inner_text()
        page.screenshot(path=artifacts / "3-dropped.png", full_page=True)

        log = tmp_path / "sdk-bot-again.log"
        with python_process(sdk_bot_args(bot.target, new_token), log) as again:
            info = registry.by_name(SDK_BOT)
            assert info is not None
            deadline = time.monotonic() + 30
            while not registry.is_online(info.bot_id):
                assert again.poll() is None, log.read_text()
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.05)
            page.goto(server.url + "/bots")
            assert "connected" in page.locator("#bots tr", has_text=SDK_BOT).inner_text()
            assert page.inner_text("#signed-in") == f"Signed in as owner of {SDK_BOT}"
            page.screenshot(path=artifacts / "4-reconnected.png", full_page=True)
