"""Hidden information: an observation holds exactly what a seat with perfect memory may know."""

from __future__ import annotations

import json
import random

from arena.games.caper import CAPER
from arena.games.caper.observation import observe, resample_hidden, sample_state
from arena.games.caper.rules import apply, create, legal_actions
from arena.games.caper.state import State


def _play(state: State, plays: int) -> State:
    for _ in range(plays):
        state = apply(state, legal_actions(state)[0])
    return state


def test_the_opponents_hand_is_unknown_until_the_first_swap() -> None:
    state = create({"city": "paris"}, 21)
    obs = observe(state, 0)
    assert obs.opponent_hand is None and obs.opponent_hand_size == 4
    assert obs.hand == tuple(sorted(c.name for c in state.hands[0]))
    swapped = _play(state, 2)
    obs = observe(swapped, 0)
    assert obs.opponent_hand == tuple(sorted(c.name for c in swapped.hands[1]))


def test_the_opponents_hand_is_unknown_again_in_the_next_round() -> None:
    state = _play(create({"city": "paris"}, 21), 6)  # round 1: three plays each
    assert state.round == 1
    assert observe(state, 1).opponent_hand is None


def test_an_observation_never_contains_the_deck_order() -> None:
    state = create({"city": "rome"}, 8)
    text = json.dumps(observe(state, 0).to_json())
    assert "deck" not in text.replace("thief_deck_size", "").replace("gear_deck_size", "")
    assert observe(state, 0).gear_deck_size == 36


def test_observations_do_not_change_when_only_hidden_cards_change() -> None:
    rng = random.Random(3)
    state = create({"city": "london"}, 9)
    while not CAPER.is_terminal(state):
        for seat in (0, 1):
            other = resample_hidden(state, seat, rng)
            assert observe(other, seat) == observe(state, seat)
        state = apply(state, rng.choice(legal_actions(state)))


def test_resampling_really_changes_hidden_cards() -> None:
    """The leak test above only means something if the resampled state differs."""
    state = create({"city": "paris"}, 10)
    other = resample_hidden(state, 0, random.Random(1))
    assert other.hands[1] != state.hands[1] or other.thief_deck != state.thief_deck
    assert other.hands[0] == state.hands[0]


def test_a_sampled_state_is_consistent_with_the_observation() -> None:
    rng = random.Random(5)
    state = create({"city": "rome"}, 12)
    while not CAPER.is_terminal(state):
        seat = state.to_move
        obs = observe(state, seat)
        sample = sample_state(obs, rng)
        assert observe(sample, seat) == obs
        assert legal_actions(sample) == legal_actions(state)
        state = apply(state, rng.choice(legal_actions(state)))
