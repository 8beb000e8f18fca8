"""GreedyBot picks the action with the best immediate score, seen only through its observation."""

from __future__ import annotations

import random
import time

import pytest

from arena.bots.greedy import GreedyBot
from arena.games.caper import CAPER, Action, State
from arena.games.caper.scenario import scenario


def greedy_choice(state: State, seed: int = 0) -> str:
    seat = state.to_move
    legal = CAPER.legal_actions(state)
    action = GreedyBot().choose(CAPER, CAPER.observation(state, seat), legal, random.Random(seed))
    assert isinstance(action, Action)
    assert action in legal
    return CAPER.action_text(action)


def test_plays_the_disguise_where_it_wins_a_location() -> None:
    # At the Louvre a Disguise still loses to Cream's two; at the Chapel it wins 5 + 1 points.
    state = scenario(
        round=2,
        hands=(["Helping Hand", "Grappling Gun"], ["Simple Disguise", "Skeleton Key"]),
        board={
            0: {0: [["The Dame", "Simple Disguise", "Simple Disguise"]]},
            1: {0: [["The Banker"]], 2: [["The Bon Vivant"]]},
        },
    )
    for seed in range(5):
        assert greedy_choice(state, seed) == "gear Simple Disguise at 2/0"


def test_flips_the_gear_that_wins_the_opponent_a_location() -> None:
    # The Cleaner makes the Blazeblaster affordable; flipping Cream's Disguise ties the Louvre.
    state = scenario(
        round=2,
        hands=(["Helping Hand", "Grappling Gun"], ["Blazeblaster", "Helping Hand"]),
        board={0: {0: [["The Dame", "Simple Disguise"]]}, 1: {0: [["The Cleaner"]]}},
        coins=(0, 1),
    )
    assert greedy_choice(state) == "gear Blazeblaster at 0/0 flip 0"


def test_plays_a_skeleton_key_rather_than_discarding_it() -> None:
    state = scenario(
        round=4,
        hands=(["Helping Hand", "Grappling Gun"], ["Helping Hand", "Skeleton Key"]),
        board={1: {1: [["The Banker"]]}},
    )
    assert greedy_choice(state) == "gear Skeleton Key at 1/0"


def test_a_single_legal_action_is_returned_without_drawing_from_the_rng() -> None:
    state = scenario(round=5, hands=(["The Dame"], ["The Mime"]))
    legal = CAPER.legal_actions(state)[:1]
    rng = random.Random(3)
    before = rng.getstate()
    assert GreedyBot().choose(CAPER, CAPER.observation(state, 0), legal, rng) == legal[0]
    assert rng.getstate() == before


def test_a_decision_takes_well_under_five_milliseconds() -> None:
    state = CAPER.create({"city": "rome"}, 9)
    bot, rng = GreedyBot(), random.Random(9)
    decisions, started = 0, time.perf_counter()
    while (seat := CAPER.current_player(state)) is not None:
        legal = CAPER.legal_actions(state)
        state = CAPER.apply(state, bot.choose(CAPER, CAPER.observation(state, seat), legal, rng))
        decisions += 1
    assert (time.perf_counter() - started) * 1000 / decisions < 5


def test_only_caper_observations_are_understood() -> None:
    with pytest.raises(TypeError, match="Caper only"):
        GreedyBot().choose(CAPER, object(), ["a", "b"], random.Random(0))  # type: ignore[arg-type]
