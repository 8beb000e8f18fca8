"""The Age of Thieves city in the replay viewer, at the data level: the computed layout, the
board drawing (aot_svg) and the pieces of every frame (aot_pieces), checked against the engine's
own observations of real 4-player games; a seat's frames hold no tile it may not see."""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from collections import Counter
from functools import cache
from html import escape
from itertools import combinations, pairwise
from typing import Any

import pytest

from arena.games import get_game
from arena.games.age_of_thieves import District, NodeKind, components, hadria
from arena.games.record import GameRecord, replay_states
from arena.play.local import play_rotation
from arena.web.aot_layout import CENTRE, layout_of
from arena.web.aot_pieces import PACKED, SLOT_RADIUS
from arena.web.aot_svg import board_svg, city_of, legend
from arena.web.replay_frames import ALL, build_replay

GAME = get_game("age-of-thieves")
PEEK_SEED = 2  # random bots, 4 players: seat 2 peeks at two face-down tiles (Rat Spies)


@cache
def _record(seed: int, bots: str = "random") -> GameRecord:
    return play_rotation(GAME, {"players": 4}, seed, [bots] * 4, 0).record


def _views(record: GameRecord, seat: int) -> list[dict[str, Any]]:
    return [GAME.observation(state, seat).to_json() for _, state in replay_states(record)]


@pytest.mark.parametrize("version", ["hadria-r1", "hadria-r2"])
def test_every_node_of_the_board_has_its_own_point_inside_the_drawing(version: str) -> None:
    drawn = layout_of(version)
    board = hadria(version=version)
    assert set(drawn.points) == {node.id for node in board.nodes}
    for (a, p), (b, q) in combinations(drawn.points.items(), 2):
        assert math.dist(p, q) >= 40, f"{a} and {b} are drawn {math.dist(p, q):.0f} apart"
    assert all(0 < x < 2 * CENTRE and 0 < y < 2 * CENTRE for x, y in drawn.points.values())


def test_the_districts_lie_where_the_compass_says_and_the_treasury_in_the_middle() -> None:
    drawn = layout_of("hadria-r2")
    assert drawn.at("T") == (CENTRE, CENTRE)
    for node in drawn.board.nodes:
        x, y = drawn.at(node.id)
        dx, dy = x - CENTRE, y - CENTRE
        if node.kind is NodeKind.SPACE and node.district is not District.PALACE:
            expected = {
                "N": dy < -abs(dx),
                "S": dy > abs(dx),
                "E": dx > abs(dy),
                "W": dx < -abs(dy),
            }
            assert expected[node.district.value], f"{node.id} drawn at {x}, {y}"
        if node.kind is NodeKind.EXIT:  # beyond the outermost ring
            assert math.hypot(dx, dy) > max(math.dist(drawn.at("N80"), (CENTRE, CENTRE)), 0)


def test_the_drawing_has_one_element_per_space_and_per_path_and_parses_as_xml() -> None:
    text = board_svg("hadria-r2")
    root = ET.fromstring(text)
    spaces = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("data-space")]
    assert sorted(g.get("data-space") or "" for g in spaces) == sorted(
        node.id for node in hadria().nodes
    )
    paths = [e for e in root.iter() if "path" in (e.get("class") or "").split()]
    assert len(paths) == len(hadria().edges) == 204
    assert "Golden Domes (N)" in text and "Salty Docks (S)" in text
    titles = {g.get("data-space"): g.findtext("{http://www.w3.org/2000/svg}title") for g in spaces}
    assert "guardhouse with swords" in (titles["N34"] or "")  # Hadria-R2 moved it from (3,2)
    assert "guardhouse with swords" in (titles_r1 := _titles("hadria-r1"))["N32"]
    assert "guardhouse with swords" not in titles_r1["N34"]


def _titles(version: str) -> dict[str, str]:
    root = ET.fromstring(board_svg(version))
    found = {}
    for g in root.iter("{http://www.w3.org/2000/svg}g"):
        if g.get("data-space"):
            found[g.get("data-space") or ""] = g.findtext("{http://www.w3.org/2000/svg}title") or ""
    return found


def test_the_drawing_and_its_legend_hold_board_data_only_no_city_tile() -> None:
    drawn = board_svg("hadria-r2") + legend()
    names = [tile.name for tile in components().city_tiles]
    assert not [name for name in names if escape(name) in drawn or name in drawn]
    assert drawn == board_svg("hadria-r2") + legend()  # the same for every game and seat


def test_a_game_page_draws_the_city_of_its_board_and_nothing_for_other_games() -> None:
    assert city_of("age-of-thieves", {"board": "hadria-r1"}) == board_svg("hadria-r1")
    assert city_of("age-of-thieves", {}) == board_svg("hadria-r2")
    assert city_of("age-of-thieves", {"board": "atlantis"}) == ""  # no crash: no city
    assert city_of("caper", {"city": "paris"}) == ""


def _expected(view: dict[str, Any]) -> Counter[tuple[str, str]]:
    """(piece, space) for every figure and token the observation puts on the board."""
    found: Counter[tuple[str, str]] = Counter()
    for seat, thief in enumerate(view["thieves"]):
        if thief["space"] or thief["exit"]:
            found[(f"thief-{seat}", thief["space"] or thief["exit"])] += 1
    for kind in ("guards", "captains", "fire", "smoke", "face_down_tiles"):
        found.update((kind, space) for space in view[kind])
    found.update(("face_down_tiles", space) for space, _ in view["open_tiles"])
    found.update((f"jewel-{kind}", space) for space, kind in view["jewels"])
    return found


def _drawn(pieces: list[dict[str, Any]]) -> Counter[tuple[str, str]]:
    names = {"guard": "guards", "captain": "captains", "tile": "face_down_tiles"}
    found: Counter[tuple[str, str]] = Counter()
    for p in pieces:
        if p["kind"] == "thief":
            found[(p["id"], p["space"])] += 1
        elif p["kind"] == "jewel":
            found[(p["id"].rsplit("-", 1)[0], p["space"])] += 1
        else:
            found[(names.get(p["kind"], p["kind"]), p["space"])] += 1
    return found


@pytest.mark.parametrize("viewer", [ALL, 0, 3])
def test_every_piece_of_every_frame_stands_on_the_space_the_observation_gives(
    viewer: int | None,
) -> None:
    record = _record(5, "greedy")
    replay = build_replay(record, viewer)
    drawn = layout_of("hadria-r2")
    views = _views(record, 0 if viewer is ALL else viewer)
    for frame, view in zip(replay.frames, views, strict=True):
        assert frame.board is not None
        pieces = frame.board["pieces"]
        assert _drawn(pieces) == _expected(view), f"step {frame.step}"
        for p in pieces:
            off = math.dist((p["x"], p["y"]), drawn.at(p["space"]))
            assert off <= SLOT_RADIUS + 0.1, f"step {frame.step}: {p['id']} {off:.1f} off"
        ids = [p["id"] for p in pieces]
        assert len(ids) == len(set(ids)), f"step {frame.step}: an id twice"


def test_a_figure_keeps_its_id_from_step_to_step_and_the_mover_leaves_a_trail() -> None:
    record = _record(5, "greedy")
    frames = build_replay(record, ALL).frames
    drawn = layout_of("hadria-r2")
    start = {p["id"]: p["space"] for p in frames[0].board["pieces"] if p["kind"] == "guard"}  # type: ignore[index]
    assert len(start) == 12 and sorted(start.values()) == sorted(GAME.observation(
        next(s for _, s in replay_states(record)), 0).to_json()["guards"])  # fmt: skip
    steps = [f for f in frames if f.action and f.action.startswith("step ")]
    assert steps
    for frame in steps:
        assert frame.board is not None and frame.mover is not None
        space = frame.action.split()[1]  # type: ignore[union-attr]
        trail = frame.board["trail"]
        thief = frame.view["thieves"][frame.mover]
        now = thief["space"] or thief["exit"]
        assert len(trail) >= 2 and trail[-1] == drawn.at(now), f"step {frame.step}"
        assert drawn.at(space) in trail[-2:]  # caught there: then the line to the dungeon
        before = frames[frame.step - 1].board
        assert before is not None
        was = {p["id"]: p["space"] for p in before["pieces"]}[f"thief-{frame.mover}"]
        assert drawn.at(was) in trail
    for a, b in pairwise(frames):  # unmoved guards keep their ids
        ga = {p["id"]: p["space"] for p in a.board["pieces"] if p["kind"] == "guard"}  # type: ignore[index]
        gb = {p["id"]: p["space"] for p in b.board["pieces"] if p["kind"] == "guard"}  # type: ignore[index]
        if sorted(ga.values()) == sorted(gb.values()):
            assert ga == gb, f"step {b.step}"


def test_a_seat_sees_the_kind_of_a_face_down_tile_only_where_it_peeked() -> None:
    record = _record(PEEK_SEED)
    names = {tile.id: tile.name for tile in components().city_tiles}
    peeked_somewhere = False
    for viewer in (0, 1, 2, 3):
        replay = build_replay(record, viewer)
        for frame, view in zip(replay.frames, _views(record, viewer), strict=True):
            assert frame.board is not None
            peeks = dict(view["peeks"])
            face_down = set(view["face_down_tiles"])
            for p in frame.board["pieces"]:
                if p["kind"] != "tile" or p["space"] not in face_down:
                    continue
                said = json.dumps(p)
                if p["space"] in peeks:
                    peeked_somewhere = True
                    assert names[peeks[p["space"]]] in said
                else:
                    assert p["label"] == "?" and not any(n in said for n in names.values())
    assert peeked_somewhere, "the game of PEEK_SEED has no peek: the test checks nothing"


def test_frames_of_other_games_carry_no_board() -> None:
    record = play_rotation(get_game("caper"), {"city": "paris"}, 3, ["random"] * 2, 0).record
    assert all("board" not in frame.to_json() for frame in build_replay(record, ALL).frames)


def test_the_page_gets_each_piece_as_a_list_in_the_packed_order() -> None:
    frame = build_replay(_record(5, "greedy"), 1).frames[10]
    assert frame.board is not None
    sent = frame.to_json()["board"]
    assert isinstance(sent, dict) and isinstance(sent["pieces"], list)
    assert sent["pieces"] == [[p[key] for key in PACKED] for p in frame.board["pieces"]]
    assert sent["trail"] == frame.board["trail"] and sent["moved"] == frame.board["moved"]
