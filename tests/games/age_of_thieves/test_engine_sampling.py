"""Sampling full states from an observation (for determinized search bots): the seat cannot tell
the sample from the real state, and the engine plays on from it (22.7)."""

from __future__ import annotations

import random

import pytest

from arena.games.age_of_thieves.sampling import sample_state
from tests.games.age_of_thieves.helpers import GAME, eager

PLAYERS = (2, 3, 4)


@pytest.mark.parametrize("players", PLAYERS)
def test_a_sample_looks_the_same_to_the_seat_and_plays_on(players: int) -> None:
    """At every decision of Jewel-seeking games, a state sampled from the acting seat's view
    gives that seat the same view, conserves the jewels, figures and 70 general cards, and
    accepts each legal action; a few random decisions later it still runs."""
    for seed in range(4):
        state = GAME.create({"players": players}, seed)
        rng = random.Random(seed)
        steps = 0
        while not GAME.is_terminal(state):
            seat = GAME.current_player(state)
            assert seat is not None
            seen = GAME.observation(state, seat)
            sample = sample_state(seen, rng)
            assert GAME.observation(sample, seat).to_json() == seen.to_json()
            assert GAME.conserved(sample) == GAME.conserved(state)
            assert GAME.legal_actions(sample) == GAME.legal_actions(state)
            if steps % 25 == 0:
                for _ in range(10):
                    if GAME.is_terminal(sample):
                        break
                    sample = GAME.apply(sample, rng.choice(list(GAME.legal_actions(sample))))
            state = GAME.apply(state, eager(state, rng), seat)
            steps += 1


def test_a_sample_deals_no_event_already_revealed() -> None:
    """Section 5 (each event is read out, then boxed; decks are never reshuffled, section 20):
    the observation lists the events revealed so far, and a sampled state's event decks hold
    none of them, however many samples are drawn."""
    state = GAME.create({"players": 2}, 3)
    rng = random.Random(3)
    while GAME.current_player(state) is not None and state.round < 6:
        state = GAME.apply(state, eager(state, rng), GAME.current_player(state))
    seen = GAME.observation(state, 0).to_json()["events_seen"]
    assert len(seen) == state.round and seen[-1] == state.event
    for draw in range(20):
        sample = sample_state(GAME.observation(state, 0), random.Random(draw))
        assert not set(sample.calm + sample.alarm) & set(seen)
        assert sample.events_seen == state.events_seen


def test_open_plans_leave_a_hidden_plan_to_be_made_again() -> None:
    """Section 8: once another seat has planned, the seat sees only that it has. By default the
    sample gives it no plan; with `open_plans` it is back to before it planned (its cards in its
    hand) and plans again when the sample is played on, the 70 general cards kept."""
    state = GAME.create({"players": 2}, 1)
    rng = random.Random(1)
    while not (state.prompt and state.prompt.name == "plan" and state.thief(0).planned):
        state = GAME.apply(state, eager(state, rng), GAME.current_player(state))
    assert state.thief(0).plan and state.prompt.seat == 1
    seen = GAME.observation(state, 1)
    assert sample_state(seen, random.Random(2)).thief(0).plan == ()
    sample = sample_state(seen, random.Random(2), open_plans=True)
    assert not sample.thief(0).planned and sample.thief(0).plan == ()
    assert GAME.conserved(sample) == GAME.conserved(state)
    while sample.prompt and sample.prompt.name == "plan":
        sample = GAME.apply(sample, eager(sample, rng), GAME.current_player(sample))
    assert sample.thief(0).planned and sample.thief(0).plan
