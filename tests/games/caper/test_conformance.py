"""The conformance checker over many random games of every city (hypothesis picks the seeds)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games.caper import CAPER, Action, ActionKind
from arena.games.caper.observation import resample_hidden
from arena.games.conformance import ConformanceError, check_game

CITIES = ("paris", "rome", "london")
PROBES = (
    Action(ActionKind.PASS),
    Action(ActionKind.DISCARD, "Skeleton Key"),
    Action(ActionKind.GEAR, "Skeleton Key", 0, 0),
    Action(ActionKind.GEAR, "Blazeblaster", 1, 0),
    Action(ActionKind.GEAR, "Blazeblaster", 1, 0, 0),
    Action(ActionKind.THIEF, "The Illusionist", 2),
    Action(ActionKind.THIEF, "The Illusionist", 2, -1, 0),
    Action(ActionKind.THIEF, "The Dame", 0),
    Action(ActionKind.THIEF, "The Dame", 0, 0),
    Action(ActionKind.REPLAY, "Skeleton Key", 0, 0),
    Action(ActionKind.GEAR, "Helping Hand", 5, 0),
)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**63 - 1), city=st.sampled_from(CITIES))
def test_random_games_keep_every_invariant(seed: int, city: str) -> None:
    report = check_game(CAPER, {"city": city}, [seed], resample_hidden, PROBES)
    assert report.games == 1
    assert report.decisions >= 2 * (6 + 15)  # every Thief and Gear play of both players


def test_many_seeded_games_per_city_keep_every_invariant() -> None:
    for city in CITIES:
        report = check_game(CAPER, {"city": city}, range(300), resample_hidden)
        assert report.games == 300


def test_checker_catches_a_leaking_observation() -> None:
    def leaky_resample(state, seat, rng):  # type: ignore[no-untyped-def]
        # Pretend the opponent's hand changed although the seat can see it: a true leak
        # detector must notice the observation differs.
        return state._replace(coins=(state.coins[0] + 1, state.coins[1]))

    try:
        check_game(CAPER, {"city": "paris"}, [1], leaky_resample)
    except ConformanceError as error:
        assert "observation" in str(error)
    else:
        raise AssertionError("the checker did not notice a visible difference")
