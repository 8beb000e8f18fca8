"""The conformance checker over random games of every city (hypothesis picks the seeds): no crash,
no hidden card in an observation, exact replays, and coins, cards and the 12 goods tokens
conserved at every step."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games import get_game
from arena.games.caper_europe import CAPER_EUROPE, Action, ActionKind, CaperEuropeGame, State
from arena.games.caper_europe.observation import resample_hidden
from arena.games.caper_europe.rules import apply, create, legal_actions
from arena.games.caper_europe.state import NONE
from arena.games.conformance import ConformanceError, check_game

CITIES = ("paris", "barcelona", "rome", "london")
PROBES = (
    Action(ActionKind.RETURN, good=0),
    Action(ActionKind.DISCARD, "skeleton_key"),
    Action(ActionKind.DISCARD, "mime"),
    Action(ActionKind.GEAR, "skeleton_key", 0, 0),
    Action(ActionKind.GEAR, "blazeblaster", 1, 0),
    Action(ActionKind.GEAR, "blazeblaster", 1, 0, 0),
    Action(ActionKind.GEAR, "stealth_suit", 2, 1, NONE, 2),
    Action(ActionKind.THIEF, "illusionist", 2),
    Action(ActionKind.THIEF, "illusionist", 2, NONE, 0),
    Action(ActionKind.THIEF, "smuggler", 0),
    Action(ActionKind.THIEF, "smuggler", 0, NONE, NONE, 1),
    Action(ActionKind.THIEF, "dame", 0, 0),
    Action(ActionKind.GEAR, "telescopic_hand", 5, 0),
    Action(ActionKind.GEAR, "no_such_card", 0, 0),
)


def test_the_game_is_registered() -> None:
    assert get_game("caper-europe") is CAPER_EUROPE
    assert isinstance(CAPER_EUROPE.rules_version, int)


def test_conserved_quantities_at_setup() -> None:
    conserved = CAPER_EUROPE.conserved(create({"city": "rome"}, 3))
    assert conserved["coins"] == conserved["total_coins"] == 10
    assert conserved["thief_and_gear_cards"] == 18 + 36
    assert [conserved[f"{good}_tokens"] for good in ("diamond", "painting", "antique")] == [4, 4, 4]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**63 - 1), city=st.sampled_from(CITIES))
def test_random_games_keep_every_invariant(seed: int, city: str) -> None:
    report = check_game(CAPER_EUROPE, {"city": city}, [seed], resample_hidden, PROBES)
    assert report.decisions >= 2 * (6 + 15)  # every Thief and Gear play of both players


def test_many_seeded_games_per_city_keep_every_invariant() -> None:
    for city in CITIES:
        assert check_game(CAPER_EUROPE, {"city": city}, range(60), resample_hidden).games == 60


def test_random_games_reach_the_victims_token_choice() -> None:
    """The `return` decision (a burned `GRAB ?`) is rare: make sure random play meets it, so the
    checks above cover it."""
    for seed in range(2000):
        state, rng = create({"city": "paris"}, seed), random.Random(seed)
        while state.to_move >= 0:
            if state.returning >= 0:
                assert all(a.kind is ActionKind.RETURN for a in legal_actions(state))
                check_game(CAPER_EUROPE, {"city": "paris"}, [seed], resample_hidden, PROBES)
                return
            state = apply(state, rng.choice(legal_actions(state)))
    raise AssertionError("no random game reached a token choice")


class _LeakyGoods(CaperEuropeGame):
    def apply(self, state: State, action: Action, seat: int | None = None) -> State:
        after = super().apply(state, action, seat)
        return after._replace(goods=((0, 0, 0), *after.goods[1:]))


def test_the_checker_notices_a_vanishing_token() -> None:
    try:
        check_game(_LeakyGoods(), {"city": "paris"}, [1], resample_hidden)
    except ConformanceError as error:
        assert "conserved" in str(error)
    else:
        raise AssertionError("the checker did not notice tokens leaving the game")


def test_the_checker_notices_a_leaking_observation() -> None:
    def leaky(state: Any, seat: int, rng: random.Random) -> Any:
        return state._replace(markers=(1, *state.markers[1:]))

    try:
        check_game(CAPER_EUROPE, {"city": "paris"}, [1], leaky)
    except ConformanceError as error:
        assert "observation" in str(error)
    else:
        raise AssertionError("the checker did not notice a visible difference")
