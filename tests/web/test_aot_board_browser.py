"""The Age of Thieves city in a real browser (Debian's chromium driven by Playwright): at several
steps of a 4-player game every piece is drawn on the space the record says (found by where it
is drawn, not by what it is labelled), stepping slides the pieces, and the city fits a laptop
and a phone. Screenshots go to tests/artifacts/web/<test>/, to be looked at."""

from __future__ import annotations

import functools
import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import redis
from playwright.sync_api import Browser, Page, ViewportSize

from arena.games import get_game
from arena.games.record import GameRecord, replay_states
from arena.play.local import play_rotation
from arena.store import keys
from arena.web.aot_pieces import tile_label
from arena.web.app import create_app
from tests.web.browser import serve

pytestmark = pytest.mark.timeout(300)

GAME = get_game("age-of-thieves")
SEED = 5  # 4 greedy thieves: three escape, one is caught on the way out
PEEK_SEED = 2  # 4 random thieves: fire, smoke, open tiles, and seat 2 peeks at two tiles
LAPTOP: ViewportSize = {"width": 1366, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}
READY = "#replay[data-ready=true]"
SETTLED = "Promise.all(document.getAnimations().map((a) => a.finished)).then(() => true)"
# Where each piece and each space is drawn on the screen, by the middle of its box.
PIECES_DRAWN = """nodes => nodes.map(n => { const r = n.getBoundingClientRect();
  return [n.id.replace('piece-', ''), n.dataset.kind, r.x + r.width / 2, r.y + r.height / 2]; })"""
SPACES_DRAWN = """nodes => nodes.map(n => { const r = n.querySelector('circle, rect, path').getBoundingClientRect();
  return [n.dataset.space, r.x + r.width / 2, r.y + r.height / 2, r.width]; })"""


def _store(client: redis.Redis, bots: str = "greedy", seed: int = SEED) -> GameRecord:
    """The four rotations of one deal, as a match stores them: its games may be shown."""
    records = [
        play_rotation(GAME, {"players": 4}, seed, [bots] * 4, rotation).record
        for rotation in range(4)
    ]
    for rotation, record in enumerate(records):
        client.set(keys.game_record(f"aot.g{rotation}"), record.dumps())
    return records[0]


def _view(record: GameRecord, step: int, seat: int = 0) -> dict[str, Any]:
    return _views(record.dumps(), seat)[step]


@functools.cache
def _views(record: str, seat: int) -> list[dict[str, Any]]:
    states = replay_states(GameRecord.loads(record))
    return [GAME.observation(state, seat).to_json() for _, state in states]


def _expected(record: GameRecord, step: int) -> Counter[tuple[str, str]]:
    """What stands where at `step`, from the engine's own observation of the record."""
    view = _view(record, step)
    found: Counter[tuple[str, str]] = Counter()
    for seat, thief in enumerate(view["thieves"]):
        if thief["space"] or thief["exit"]:
            found[(f"thief-{seat}", thief["space"] or thief["exit"])] += 1
    for kind, field in (("guard", "guards"), ("captain", "captains"), ("fire", "fire")):
        found.update((kind, space) for space in view[field])
    found.update(("smoke", space) for space in view["smoke"])
    found.update(("tile", space) for space in view["face_down_tiles"])
    found.update(("tile", space) for space, _ in view["open_tiles"])
    found.update((f"jewel-{kind}", space) for space, kind in view["jewels"])
    return found


def _seen(page: Page) -> Counter[tuple[str, str]]:
    """Each piece's kind (a thief by seat, a jewel by colour) and the space nearest to where
    it is drawn, which must lie within that space's own width."""
    spaces: list[list[Any]] = page.eval_on_selector_all("#spaces .space", SPACES_DRAWN)
    pieces: list[list[Any]] = page.eval_on_selector_all("#city .piece", PIECES_DRAWN)
    found: Counter[tuple[str, str]] = Counter()
    for id, kind, x, y in pieces:
        space, sx, sy, width = min(spaces, key=lambda s: math.dist((x, y), (s[1], s[2])))
        assert math.dist((x, y), (sx, sy)) < width, f"{id} is drawn off {space}"
        name = id if kind == "thief" else kind
        if kind == "jewel":
            name = id.rsplit("-", 1)[0]
        found[(name, space)] += 1
    return found


def _mover(record: GameRecord, step: int) -> int:
    """The seat whose decision `step` is: the one to move at the step before."""
    return int(_view(record, step - 1)["to_move"])


def _far_moves(record: GameRecord) -> list[int]:
    """A step of a thief walking on the city's east side, then one on its west side."""
    found = []
    for side in ("E", "W"):
        walks = (i for i, a in enumerate(record.actions, start=1) if a.startswith(f"step {side}"))
        found.append(next(i for i in walks if len(record.actions[i - 1]) == 8 and
                          record.actions[i - 1][6] in "5678"))  # fmt: skip
    return found


def _inside(page: Page, inner: str, outer: str) -> bool:
    a, b = page.locator(inner).bounding_box(), page.locator(outer).bounding_box()
    assert a is not None and b is not None
    return bool(b["x"] <= a["x"] and a["x"] + a["width"] <= b["x"] + b["width"])


def _go(page: Page, step: int) -> None:
    page.locator("#slider").fill(str(step))
    assert page.text_content("#step-label") == f"Move {step} / {page.text_content('#move-count')}"
    page.wait_for_function(SETTLED)


def test_every_piece_stands_where_the_record_says_at_several_steps_of_a_4_player_game(
    redis_client: redis.Redis, browser: Browser, artifacts: Path
) -> None:
    record = _store(redis_client)
    last = len(record.actions)
    arrest = next(i for i in range(1, last) if "VW" in str(_expected(record, i)))
    steps = [0, 4, 25, 60, arrest, last]
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    with serve(create_app(redis_client)) as server:
        page.goto(f"{server.url}/games/aot.g0")
        page.wait_for_selector(READY)
        for step in steps:
            _go(page, step)
            assert _seen(page) == _expected(record, step), f"step {step}"
            page.screenshot(path=artifacts / f"laptop-step-{step}.png", full_page=True)
            page.locator("#city").screenshot(path=artifacts / f"laptop-city-{step}.png")
        # Stepping on slides the pieces that move: their transitions run, then settle.
        _go(page, 22)
        running = page.evaluate(
            "() => { document.getElementById('forward').click(); "
            "return document.getAnimations().length; }"
        )
        assert record.actions[22].startswith("step ") and running >= 1
        page.wait_for_function(SETTLED)
        assert _seen(page) == _expected(record, 23)
        assert page.get_attribute("#trail", "points")  # the mover's path is drawn
    context.close()


def test_the_city_fits_a_phone_and_zooms_and_a_seat_view_draws_the_same_pieces(
    redis_client: redis.Redis, browser: Browser, artifacts: Path
) -> None:
    record = _store(redis_client)
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    phone = context.new_page()
    with serve(create_app(redis_client)) as server:
        phone.goto(f"{server.url}/games/aot.g0#seat=2&step=60")
        phone.wait_for_selector(READY)
        phone.wait_for_function(SETTLED)
        assert phone.text_content("#step-label") == f"Move 60 / {len(record.actions)}"
        assert _seen(phone) == _expected(record, 60)
        box = phone.locator("#city").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert box["width"] >= PHONE["width"] - 60  # the city takes the phone's width
        wide = phone.eval_on_selector("#replay", "card => card.scrollWidth - card.clientWidth")
        assert wide <= 1, f"the replay is {wide} px wider than the phone"
        phone.screenshot(path=artifacts / "phone-step-60.png", full_page=True)
        phone.screenshot(path=artifacts / "phone-step-60-city.png")
        phone.click("#city-zoom")
        zoomed = phone.locator("#city").bounding_box()
        assert zoomed is not None and zoomed["width"] >= 2 * box["width"] - 2
        phone.screenshot(path=artifacts / "phone-step-60-zoomed.png")
        assert _seen(phone) == _expected(record, 60)
        for step in _far_moves(record):  # zoomed, the city follows the thief who moved
            _go(phone, step)
            mover = f"#piece-thief-{_mover(record, step)}"
            assert _inside(phone, mover, "#city-box"), f"step {step}: {mover} out of view"
        phone.screenshot(path=artifacts / "phone-zoomed-following.png")
    context.close()


def test_fire_smoke_open_and_peeked_tiles_and_each_seat_sees_only_its_own_peeks(
    redis_client: redis.Redis, page: Page, artifacts: Path
) -> None:
    record = _store(redis_client, "random", PEEK_SEED)
    fire = next(i for i in range(len(record.actions)) if _view(record, i)["fire"])
    smoke = next(i for i in range(fire, len(record.actions)) if _view(record, i)["smoke"])
    opened = next(i for i in range(len(record.actions)) if _view(record, i)["open_tiles"])
    peeks = [(i, _view(record, i, 2)["peeks"]) for i in range(len(record.actions))]
    peek_step, peeked = next((i, p) for i, p in peeks if p)
    with serve(create_app(redis_client)) as server:
        page.goto(f"{server.url}/games/aot.g0")
        page.wait_for_selector(READY)
        for step in (fire, smoke, opened, len(record.actions)):
            _go(page, step)
            assert _seen(page) == _expected(record, step), f"step {step}"
            page.locator("#city").screenshot(path=artifacts / f"city-{step}.png")
        space, kind = peeked[0]
        for seat, label in (("2", tile_label(kind)), ("0", "?"), ("all", tile_label(kind))):
            page.select_option("#seat", seat)
            page.wait_for_selector(READY)
            _go(page, peek_step)
            assert page.text_content(f"#piece-tile-{space} text") == label, f"seat {seat}"
            assert _seen(page) == _expected(record, peek_step)
        page.locator("#city").screenshot(path=artifacts / f"city-{peek_step}-all-seats.png")
