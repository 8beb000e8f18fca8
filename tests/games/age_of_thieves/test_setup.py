"""The setup of spec section 4 as a pure function on the reference board."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from arena.games.age_of_thieves import (
    OUTER,
    CardKind,
    Deck,
    District,
    Feature,
    catalogue,
    components,
    hadria,
)
from arena.games.age_of_thieves.setup import Setup, setup
from arena.games.api import ConfigError


def make(players: int = 4, seed: int = 1, **choices: Any) -> Setup:
    return setup(hadria(), catalogue(), components(), players, seed, **choices)


def test_twelve_guards_on_the_sword_guardhouses_and_36_face_down_tiles_outside_the_palace() -> None:
    game, board = make(), hadria()
    assert game.guards == board.with_feature(Feature.SWORD_GUARDHOUSE) and len(game.guards) == 12
    places = [space for space, _ in game.city_tiles]
    assert len(places) == 36 and places == sorted(places)
    assert all(board.node(p).guardhouse for p in places)
    assert not any(board.node(p).district is District.PALACE for p in places)
    assert set(game.guards) <= set(places)  # a tile under each starting guard (step 14)
    pool = Counter({tile.id: tile.count for tile in components().city_tiles})
    assert not Counter(tile for _, tile in game.city_tiles) - pool  # drawn from the 51


def test_hands_decks_and_events() -> None:
    game = make(players=3)
    data = catalogue()
    for seat, hand in enumerate(game.hands):
        special = next(t.special for t in data.thieves if t.id == game.thieves[seat])
        assert hand[:3] == ("B01", "B02", special)
        assert [data.card(c).kind for c in hand[3:]] == [CardKind.GENERAL] * 2
    dealt = [c for hand in game.hands for c in hand[3:]]
    assert len(game.action_deck) == 70 - 6
    general = Counter({c.id: c.copies for c in data.of_kind(CardKind.GENERAL)})
    assert Counter(game.action_deck) + Counter(dealt) == general
    assert len(game.calm_events) == 10 and len(set(game.calm_events)) == 10
    assert {data_event.deck for data_event in _events(game.calm_events)} == {Deck.CALM}
    assert len(game.alarm_events) == 5 and len(set(game.alarm_events)) == 5
    assert {data_event.deck for data_event in _events(game.alarm_events)} == {Deck.ALARM}
    assert sorted(game.district_deck) == sorted(OUTER)
    assert game.blue_ap == 10


def _events(ids: tuple[str, ...]) -> list[Any]:
    return [e for e in catalogue().events if e.id in ids]


def test_first_game_leaves_the_special_cards_in_the_box() -> None:
    game = make(first_game=True)
    assert all(hand[:2] == ("B01", "B02") and len(hand) == 4 for hand in game.hands)


def test_the_emperors_jewel_on_the_treasury_and_a_green_jewel_on_each_marked_space() -> None:
    jewels = dict(make().jewels)
    assert jewels.pop("T") == "emperors_jewel"
    assert sorted(jewels) == sorted(hadria().with_feature(Feature.GREEN_JEWEL))
    assert set(jewels.values()) == {"green_jewel"}


def test_the_highest_initial_roll_starts_and_a_tie_is_rolled_again() -> None:
    """D-15: ties re-roll among the tied, from the seeded stream."""
    games = [make(seed=seed) for seed in range(60)]
    for game in games:
        assert all(1 <= value <= 8 for roll in game.rolls for value in roll)
        last = game.rolls[-1]
        assert last.count(max(last)) == 1  # rolling stops once one thief is highest
        for before, again in zip(game.rolls, game.rolls[1:], strict=False):
            assert len(again) == before.count(max(before))  # only the tied highest re-roll
        assert game.rolls[0][game.first_player] == max(game.rolls[0])
    assert any(len(game.rolls) > 1 for game in games)  # with 4 players ties are common


def test_start_fields_one_thief_each_defaults_seeded_and_choices_honoured() -> None:
    starts = hadria().with_feature(Feature.START)
    for seed in range(10):
        game = make(seed=seed)
        assert sorted(game.starts) == sorted(starts)
    two = make(players=2, starts=("S82", "N82"))
    assert two.starts == ("S82", "N82")
    with pytest.raises(ConfigError, match=re.escape("'N81' is no start field")):
        make(players=2, starts=("S82", "N81"))
    with pytest.raises(ConfigError, match="only one thief per start field"):
        make(players=2, starts=("S82", "S82"))


def test_chosen_thieves_are_honoured_and_change_no_other_random_step() -> None:
    """22.7: a choice made instead of a draw shifts no other stream."""
    drawn = make(seed=5)
    chosen = make(seed=5, thieves=("zain", "joanne", "morius", "noiron"))
    assert chosen.thieves == ("zain", "joanne", "morius", "noiron")
    assert chosen.city_tiles == drawn.city_tiles and chosen.action_deck == drawn.action_deck
    assert chosen.calm_events == drawn.calm_events and chosen.rolls == drawn.rolls
    assert chosen.hands[1][2] == "S06"  # Joanne's special


def test_the_same_seed_gives_the_same_setup_and_another_seed_another() -> None:
    assert make(seed=9) == make(seed=9)
    assert make(seed=9).city_tiles != make(seed=10).city_tiles


@pytest.mark.parametrize(
    ("players", "choices", "message"),
    [
        (1, {}, "Age of Thieves is for 2 to 4 players, not 1"),
        (5, {}, "Age of Thieves is for 2 to 4 players, not 5"),
        (2, {"thieves": ("zain",)}, "2 players need 2 thieves, got 1"),
        (2, {"thieves": ("zain", "robin")}, "unknown thief 'robin': the thieves are morius"),
        (2, {"thieves": ("zain", "zain")}, "a thief can be played by one player only"),
        (3, {"starts": ("N82",)}, "3 players need 3 start fields, got 1"),
    ],
)
def test_bad_choices_are_refused(players: int, choices: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        make(players=players, **choices)
