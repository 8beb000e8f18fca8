"""The card faces and board legend the replay viewer draws with (arena.web.replay_cards): every
card and space a real game shows has its entry, with the engine's own name, cost and text."""

from __future__ import annotations

from typing import Any

import pytest

from arena.games import get_game
from arena.games.age_of_thieves import catalogue
from arena.games.caper.cards import CATALOGUE as CAPER_CARDS
from arena.games.caper_europe.catalogue import CATALOGUE as EUROPE_CARDS
from arena.play.local import play_rotation
from arena.web.europe_words import card_words
from arena.web.replay_cards import board_legend, card_table
from arena.web.replay_frames import ALL, build_replay


def _shown(game_id: str, view: dict[str, Any]) -> set[str]:
    """Every card key a frame's view names."""
    keys = {*view.get("locations", ()), *[c for hand in view["hands"] for c in hand]}
    keys |= {c for pile in view.get("discards", ()) for c in pile}
    if game_id == "caper":
        keys |= {
            card for side in view["board"] for crew in side for stack in crew for card, _ in stack
        }
    if game_id == "caper-europe":
        keys |= {card for side in view["crews"] for crew in side for card, _ in crew}
    if game_id == "age-of-thieves":
        keys |= {t["thief"] for t in view["thieves"]} | set(view["discard"])
        keys |= {view["event"]} - {""}
    return keys


@pytest.mark.parametrize(
    ("game_id", "config", "sides"),
    [
        ("caper", {"city": "london"}, 2),
        ("caper-europe", {"city": "paris"}, 2),
        ("age-of-thieves", {}, 2),
    ],
)
def test_every_card_a_game_shows_has_a_face(
    game_id: str, config: dict[str, str | int], sides: int
) -> None:
    record = play_rotation(get_game(game_id), config, 8, ["random"] * sides, 0).record
    table = card_table(game_id, record.config)
    shown = set().union(*(_shown(game_id, f.view) for f in build_replay(record, ALL).frames))
    assert shown and shown <= set(table), sorted(shown - set(table))
    for face in table.values():
        assert face["name"] and face["kind"] and "text" in face and "colour" in face


def test_faces_are_the_engines_cards() -> None:
    caper = card_table("caper", {"city": "rome"})
    stealth = CAPER_CARDS["Stealth Suit"]
    assert caper["Stealth Suit"] == {
        "name": "Stealth Suit", "kind": "gear", "text": stealth.text, "colour": stealth.colour.value,
        "cost": stealth.cost, "copies": stealth.copies, "goods": "antique",
    }  # fmt: skip
    assert all(CAPER_CARDS[key].city.value in ("base", "rome") for key in caper)
    europe = card_table("caper-europe", {"city": "barcelona"})
    assert europe["banker"]["notation"] == EUROPE_CARDS["banker"].text == "PER yellow: MOVE 1"
    assert europe["banker"]["text"] == card_words(EUROPE_CARDS["banker"])  # in plain English
    assert europe["banker"]["income"] == 2 and europe["banker"]["german"] == "Der Bankier"
    aot = card_table("age-of-thieves", {})
    assert {c.id for c in catalogue().cards} <= set(aot)
    assert card_table("chess", {}) == {} and board_legend("caper") == {}


def test_the_board_legend_names_the_district_of_every_space_a_game_uses() -> None:
    record = play_rotation(get_game("age-of-thieves"), {"players": 3}, 4, ["random"] * 3, 0).record
    legend = board_legend("age-of-thieves")
    assert set(legend["districts"]) == {"P", "N", "E", "S", "W"}
    spaces: set[str] = set()
    for frame in build_replay(record, ALL).frames:
        spaces |= {t["space"] for t in frame.view["thieves"] if t["space"]}
        spaces |= set(frame.view["guards"]) | {space for space, _ in frame.view["jewels"]}
    assert spaces and spaces <= set(legend["spaces"])
    assert {legend["spaces"][space] for space in spaces} <= set(legend["districts"])
