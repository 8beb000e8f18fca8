"""The replay viewer in a real browser (Debian's chromium driven by Playwright), on games of a
real tournament played by real worker processes; screenshots go to tests/artifacts/web/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import redis
from playwright.sync_api import Page
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from arena.games import get_game
from arena.games.caper.cards import CATALOGUE as CAPER_CARDS
from arena.games.caper_europe.catalogue import CATALOGUE as EUROPE_CARDS
from arena.games.record import GameRecord, replay_states
from arena.play.local import play_rotation
from arena.store import keys
from arena.store.ladders import LadderDefinition, LadderStore, ladder_ref
from arena.store.ratings import RatedResult, RatingStore
from arena.store.tournaments import Status, TournamentStore
from arena.store.values import as_text
from arena.web.app import create_app
from arena.web.europe_words import card_words
from tests.web.browser import CHROMIUM, require_chromium, serve
from tests.workers.conftest import StartWorker
from tests.workers.tournaments import create_and_start, wait_until_over, work_in_process

pytestmark = pytest.mark.timeout(300)

READY = "#replay[data-ready=true]"


def _hello(request: Request) -> HTMLResponse:
    button = "<button id=b onclick=\"this.textContent='clicked'\">click</button>"
    return HTMLResponse(f"<!doctype html><title>up</title>{button}")


def test_the_browser_drives_a_page_served_by_a_real_uvicorn(page: Page, artifacts: Path) -> None:
    with serve(Starlette(routes=[Route("/", _hello)])) as server:
        page.goto(server.url + "/")
        page.click("#b")
        assert page.text_content("#b") == "clicked"
        page.screenshot(path=artifacts / "hello.png")
    assert (artifacts / "hello.png").stat().st_size > 0


def test_a_missing_chromium_fails_with_the_command_that_installs_it(tmp_path: Path) -> None:
    with pytest.raises(pytest.fail.Exception, match="run `make test-tools`"):
        require_chromium(tmp_path / "chromium")
    require_chromium(CHROMIUM)  # here it is installed


def _stored(client: redis.Redis, name: str) -> tuple[str, GameRecord]:
    """The first game of the tournament's first recorded match, and its record."""
    match = min(TournamentStore(client).results(name).values(), key=lambda m: m.match_id)
    game_id = match.game_ids[0]
    stored = client.get(keys.game_record(game_id))
    assert stored is not None
    return game_id, GameRecord.loads(as_text(stored))


def _cards(page: Page, selector: str) -> list[str]:
    found: list[str] = page.eval_on_selector_all(
        selector, "nodes => nodes.map(n => n.dataset.card)"
    )
    return found


def _step(page: Page) -> str:
    return page.text_content("#step-label") or ""


def test_stepping_through_a_tournament_game_shows_the_stored_moves_cards_and_scores(
    redis_client: redis.Redis, start_worker: StartWorker, page: Page, artifacts: Path
) -> None:
    start_worker("web-a"), start_worker("web-b")
    create_and_start(
        redis_client, "show", "round-robin", ["random", "greedy", "search#4"], seed=4242
    )
    assert wait_until_over(redis_client, "show") is Status.FINISHED
    game_id, record = _stored(redis_client, "show")
    game, moves = get_game(record.game), len(record.actions)
    states = [state for _, state in replay_states(record)]
    assert record.result is not None
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    with serve(create_app(redis_client)) as server:
        page.goto(f"{server.url}/games/{game_id}")
        page.wait_for_selector(READY)
        assert page.text_content("#move-count") == str(moves)
        assert " vs ".join(record.players) == page.text_content("#players")
        assert _step(page) == f"Move 0 / {moves}" and "The deal." in (
            page.text_content("#move-text") or ""
        )
        first = game.observation(states[0], 0).to_json()
        assert _cards(page, ".location > .gcard") == first["locations"]
        page.screenshot(path=artifacts / "1-deal.png", full_page=True)
        for step in range(1, moves + 1):  # forward through the whole game, one click a move
            page.click("#forward")
            assert _step(page) == f"Move {step} / {moves}"
            seat = game.current_player(states[step - 1])
            assert seat is not None
            mover = record.players[seat]
            shown = page.text_content("#move-text") or ""
            assert f"“{record.actions[step - 1]}”" in shown and mover in shown
            verb, _, rest = record.actions[step - 1].partition(" ")
            if verb in ("thief", "gear"):  # the card just played is marked on the board
                assert rest.partition(" at ")[0] in _cards(page, ".location .gcard.fresh")
            if step == moves // 2:
                page.screenshot(path=artifacts / "2-middle.png", full_page=True)
        scores = record.result["scores"]
        final = page.text_content("#frame-scores") or ""
        assert final == "Final score: " + ", ".join(
            f"seat {seat} · {record.players[seat]} {score}" for seat, score in enumerate(scores)
        )
        rows = page.eval_on_selector_all(
            "#breakdown tr", "rows => rows.map(r => [...r.children].map(c => c.textContent))"
        )
        for category, points in record.result["breakdown"][0].items():
            assert [category.replace("_", " "), str(points)] == next(
                row[:2] for row in rows if row[0] == category.replace("_", " ")
            )
        effects = page.eval_on_selector_all(  # board cards show their effect too
            ".location .crew .gcard", "n => n.map(x => [x.dataset.card, x.innerText])"
        )
        assert effects and all(CAPER_CARDS[key].text in text for key, text in effects)
        page.screenshot(path=artifacts / "3-end.png", full_page=True)
        for _ in range(3):
            page.click("#back")
        page.keyboard.press("ArrowLeft")
        assert _step(page) == f"Move {moves - 4} / {moves}"
        page.keyboard.press("Home")
        assert _step(page) == f"Move 0 / {moves}"
        _check_seat_view(page, game, states, artifacts)
        assert page.url.endswith("#seat=0&step=7")  # the address names the view shown
        page.goto(f"{server.url}/games/{game_id}#seat=1&step=12")
        page.reload()
        page.wait_for_selector(READY)
        assert _step(page) == f"Move 12 / {moves}" and page.input_value("#seat") == "1"
    assert not errors, errors


def _check_seat_view(page: Page, game: Any, states: list[Any], artifacts: Path) -> None:
    """Seat 0 sees its own hand as the engine's observation has it, the other hand face down
    until the round's swap shows it."""
    page.select_option("#seat", "0")
    page.wait_for_selector(READY)
    for step in (0, 1, 7):
        page.fill("#slider", str(step))
        page.dispatch_event("#slider", "input")
        assert _step(page).startswith(f"Move {step} /")
        seen = game.observation(states[step], 0).to_json()
        assert (
            _cards(page, ".seat-panel.side-0 .row:first-of-type .row-cards > .gcard")
            == seen["hand"]
        )
        other = _cards(page, ".seat-panel.side-1 .row:first-of-type .row-cards > .gcard")
        if seen["opponent_hand"] is None:
            assert other == [] and page.is_visible(".seat-panel.side-1 .hidden-cards")
        else:
            assert other == seen["opponent_hand"]
    page.screenshot(path=artifacts / "4-seat-0.png", full_page=True)


def test_a_europe_game_shows_its_marker_track_and_goods(
    redis_client: redis.Redis, page: Page, artifacts: Path
) -> None:
    create_and_start(
        redis_client,
        "eu",
        "round-robin",
        ["random", "greedy"],
        seed=77,
        game="caper-europe",
        city="rome",
    )
    work_in_process(redis_client)
    game_id, record = _stored(redis_client, "eu")
    last = [state for _, state in replay_states(record)][-1]
    view = get_game(record.game).observation(last, 0).to_json()
    with serve(create_app(redis_client)) as server:
        page.goto(f"{server.url}/games/{game_id}")
        page.wait_for_selector(READY)
        page.keyboard.press("End")
        markers = page.eval_on_selector_all(
            ".track-value", "nodes => nodes.map(n => n.textContent)"
        )
        assert markers == [f"{m:+d}" if m else "0" for m in view["markers"]]
        for loc, counts in enumerate(view["goods"]):
            tokens = page.locator(f".location:nth-child({loc + 1}) > .goods .token")
            assert tokens.count() == sum(counts)
        names = page.eval_on_selector_all(
            ".location > .gcard .gcard-name", "n => n.map(x => x.textContent)"
        )
        assert names == [EUROPE_CARDS[card].name for card in view["locations"]]
        texts = page.eval_on_selector_all(
            ".location > .gcard .gcard-text", "n => n.map(x => x.textContent)"
        )
        assert texts == [card_words(EUROPE_CARDS[card]) for card in view["locations"]]
        assert not any("PER " in text or "@" in text for text in texts), "words, not notation"
        _check_board_card_effects(page)
        page.screenshot(path=artifacts / "europe-end.png", full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})  # a phone: no hover, a tap
        page.click(".location .crew .gcard >> nth=0")
        page.locator(".location").first.screenshot(path=artifacts / "europe-phone-card-open.png")


def _check_board_card_effects(page: Page) -> None:
    """Every card in a crew shows its effect in words, clamped to two lines; a click opens
    one card's whole text (and says so to screen readers), a second click closes it."""
    shown = page.eval_on_selector_all(
        ".location .crew .gcard",
        "n => n.map(x => [x.dataset.card, x.querySelector('.gcard-text.compact').textContent])",
    )
    assert shown, "the game ended with cards in the crews"
    assert shown == [[key, card_words(EUROPE_CARDS[key])] for key, _ in shown]
    longest = max(range(len(shown)), key=lambda i: len(shown[i][1]))
    card = page.locator(".location .crew .gcard").nth(longest)
    text = card.locator(".gcard-text")
    clipped = "t => t.scrollHeight > t.clientHeight + 1"
    assert text.evaluate(clipped), "a long effect is clamped on the board"
    card.click()
    assert card.get_attribute("aria-expanded") == "true" and not text.evaluate(clipped)
    card.press("Enter")
    assert card.get_attribute("aria-expanded") == "false" and text.evaluate(clipped)
    card.click()


def test_a_game_page_in_play_turns_into_the_replay_once_its_match_is_rated(
    redis_client: redis.Redis, page: Page, artifacts: Path
) -> None:
    definition = LadderDefinition(ladder_ref("live"))
    LadderStore(redis_client).create(definition)
    slug = definition.ref.slug
    record = play_rotation(get_game("caper"), {"city": "paris"}, 3, ["greedy", "random"], 0).record
    redis_client.set(keys.game_record(f"{slug}.m1.g0"), record.dumps())
    with serve(create_app(redis_client)) as server:
        page.goto(f"{server.url}/games/{slug}.m1.g0")
        assert page.text_content("#game-status") == "in play"
        assert page.locator(".gcard").count() == 0
        page.screenshot(path=artifacts / "in-play.png", full_page=True)
        result = RatedResult(f"{slug}.m1", "greedy", "random", 1.0, 1e9, 1)
        RatingStore(redis_client).apply(definition, result)
        page.wait_for_selector(READY)  # the page looks again every 5 s and reloads
        assert page.text_content("#game-status") == "finished"
        assert page.text_content("#move-count") == str(len(record.actions))


def test_a_forfeited_game_ends_where_its_record_stops(
    redis_client: redis.Redis, page: Page, artifacts: Path
) -> None:
    played = play_rotation(get_game("caper"), {"city": "rome"}, 31_337, ["greedy", "random"], 0)
    forfeit = {"scores": [0, 1], "winner": 1, "breakdown": [{}, {}], "tiebreak": "", "details": {}}
    cut = played.record.to_json() | {"actions": list(played.record.actions[:9])}
    cut |= {"termination": "forfeit", "result": forfeit}
    for index in (0, 1):  # both games of the deal stored: it may be shown
        redis_client.set(keys.game_record(f"mcut.g{index}"), GameRecord.from_json(cut).dumps())
    with serve(create_app(redis_client)) as server:
        page.goto(f"{server.url}/games/mcut.g0")
        page.wait_for_selector(READY)
        assert page.text_content("#termination") == "forfeit"
        assert page.text_content("#final-scores") == "0 : 1 · random wins"
        page.keyboard.press("End")
        assert _step(page) == "Move 9 / 9"
        assert (page.text_content("#move-text") or "").endswith("The game ended here: forfeit.")
        assert page.locator("#frame-scores").count() == 0
        page.screenshot(path=artifacts / "forfeit.png", full_page=True)
