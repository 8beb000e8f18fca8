"""The site on a phone (390 px wide, Debian's chromium driven by Playwright): the standings keep
their rating column in view, a table wider than the screen says it scrolls, and the replay's
controls (autoplay too) take two rows at most. Screenshots go to tests/artifacts/web/."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest
import redis
from playwright.sync_api import Browser, Page, ViewportSize

from arena.store.encounters import table_encounters
from arena.store.results import StoredTable
from arena.store.tournaments import Status, TournamentStore
from arena.tournament import TableRound
from arena.tournament.definition import Format, TournamentDefinition
from arena.web.app import create_app
from tests.web.browser import serve
from tests.workers.tournaments import create_and_start, work_in_process

pytestmark = pytest.mark.timeout(300)

PHONE: ViewportSize = {"width": 390, "height": 844}
FIELD = ["random", "greedy", "search#4", "search#8", "search#2"]


@pytest.fixture
def phone(browser: Browser) -> Page:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    context.set_default_timeout(15_000)
    return context.new_page()


def right_edge(page: Page, selector: str) -> float:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return float(box["x"] + box["width"])


def rows(middles: list[float]) -> int:
    """How many rows elements with these vertical middles make (centred: a few px apart)."""
    ordered = sorted(middles)
    return 1 + sum(1 for a, b in pairwise(ordered) if b - a > 10)


def stored_table_tournament(client: redis.Redis) -> None:
    """Eight thieves at tables of four for three rounds, stored as the workers store them:
    their crosstable holds up to three placement points a cell, wider than a phone."""
    field = tuple(f"thief-{n}" for n in range(1, 9))
    TournamentStore(client).create(
        TournamentDefinition(
            "heist", Format.ROUND_ROBIN, field, game="age-of-thieves",
            config={"players": 4}, table_size=4, games_per_match=4, duplicate=False,
        )
    )  # fmt: skip
    store, scores = table_encounters(client), (30.0, 20.0, 0.0, 0.0)
    for number in (1, 2, 3):
        order = field[number - 1 :] + field[: number - 1]
        tables = (order[:4], order[4:])
        store.save_round("heist", TableRound(number, tables))
        for board, seats in enumerate(tables):
            table_id = f"heist.r{number}.b{board}"
            store.record(
                "heist",
                StoredTable(
                    table_id,
                    number,
                    seats,
                    scores,
                    (9, 5, 0, 0),
                    (1, 0, 0, 0),
                    (f"{table_id}.g0",),
                    ("normal",),
                ),
            )


def test_on_a_phone_the_rating_shows_and_wide_tables_say_they_scroll(
    phone: Page, page: Page, artifacts: Path, redis_client: redis.Redis
) -> None:
    create_and_start(redis_client, "cup", "swiss", FIELD, rounds=3, seed=97531)
    work_in_process(redis_client)
    assert TournamentStore(redis_client).status("cup") is Status.FINISHED
    errors: list[str] = []
    phone.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    phone.on(
        "response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None
    )
    with serve(create_app(redis_client)) as server:
        phone.goto(server.url + "/tournaments/cup")
        phone.wait_for_load_state("networkidle")
        assert errors == []  # the icon too: /favicon.ico was the one 404
        phone.screenshot(path=artifacts / "tournament-phone.png", full_page=True)
        rating = "#standings th:text-is('rating')"
        assert phone.locator(rating).is_visible()
        assert right_edge(phone, rating) <= PHONE["width"], "the rating column is off screen"
        standings = phone.locator("#standings").evaluate(
            "t => [t.parentElement.scrollWidth, t.parentElement.clientWidth]"
        )
        assert standings[0] <= standings[1], "the standings scroll sideways"
        assert not phone.locator(".scroll-cue").is_visible()  # nothing here scrolls now
    stored_table_tournament(redis_client)
    with serve(create_app(redis_client)) as server:
        phone.goto(server.url + "/tournaments/heist")
        phone.screenshot(path=artifacts / "tables-phone.png", full_page=True)
        card = phone.locator("section.card:has(#crosstable)")
        assert card.evaluate("c => c.scrollWidth > c.clientWidth"), "a table wider than a phone"
        assert "scrolls" in (card.get_attribute("class") or "")
        cue = phone.locator("section.card:has(#crosstable) .scroll-cue")
        assert cue.is_visible() and "scroll sideways" in cue.inner_text()
        page.goto(server.url + "/tournaments/heist")  # a laptop: the crosstable fits its card
        page.screenshot(path=artifacts / "tables-laptop.png", full_page=True)
        inside = "section.card:has(#crosstable)"
        assert right_edge(page, "#crosstable") <= right_edge(page, inside)
        assert not page.locator(".scroll-cue").is_visible()


def test_on_a_phone_the_replay_controls_take_two_rows_at_most_and_autoplay(
    phone: Page, artifacts: Path, redis_client: redis.Redis
) -> None:
    create_and_start(redis_client, "pocket", "round-robin", FIELD[:3], seed=4242)
    work_in_process(redis_client)
    game_id = min(TournamentStore(redis_client).results("pocket"))  # a match id
    with serve(create_app(redis_client)) as server:
        phone.goto(f"{server.url}/games/{game_id}.g0")
        phone.wait_for_selector("#replay[data-ready=true]")
        phone.screenshot(path=artifacts / "replay-phone.png")
        middles = phone.eval_on_selector_all(
            ".controls > *",
            "nodes => nodes.map(n => { const r = n.getBoundingClientRect(); "
            "return r.top + r.height / 2; })",
        )
        assert len(middles) == 9 and rows(middles) <= 2, middles
        assert right_edge(phone, ".controls") <= PHONE["width"]
        _autoplay_to_the_end(phone)
        phone.screenshot(path=artifacts / "replay-phone-autoplayed.png")


def _autoplay_to_the_end(phone: Page) -> None:
    """Play at 4x steps on by itself and stops at the last move; space plays and pauses."""
    moves = int(phone.text_content("#move-count") or "")
    step = "() => Number(document.getElementById('step-label').textContent.split(' ')[1])"
    phone.select_option("#speed", "4")
    phone.click("#play")
    assert phone.text_content("#play") == "Pause"
    phone.wait_for_function(f"({step})() > 2")
    phone.wait_for_selector("#replay[data-playing=false]", timeout=60_000)
    assert phone.text_content("#step-label") == f"Move {moves} / {moves}"
    assert phone.text_content("#play") == "Play"
    link = phone.get_attribute("#text-link", "href") or ""
    assert link.endswith(f"/text?step={moves}&seat=all")
    phone.evaluate("document.activeElement.blur()")
    phone.keyboard.press("Space")  # at the end, Play starts again from the deal
    phone.wait_for_selector("#replay[data-playing=true]")
    phone.wait_for_function(f"({step})() >= 1")
    phone.keyboard.press("Space")
    phone.wait_for_selector("#replay[data-playing=false]")
    paused = phone.text_content("#step-label")
    phone.wait_for_timeout(600)  # more than two ticks at 4x: a paused replay stays put
    assert phone.text_content("#step-label") == paused != f"Move {moves} / {moves}"
