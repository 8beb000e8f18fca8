"""Hidden information: an observation holds exactly what a seat with perfect memory may know, and
a sampled state is one the seat cannot tell apart from the real one."""

from __future__ import annotations

import json
import random

from arena.games.caper_europe import CAPER_EUROPE
from arena.games.caper_europe.observation import observe, resample_hidden, sample_state
from arena.games.caper_europe.rules import apply, create, legal_actions
from arena.games.caper_europe.state import State


def _play(state: State, plays: int) -> State:
    for _ in range(plays):
        state = apply(state, legal_actions(state)[0])
    return state


def test_the_opponents_hand_is_unknown_until_the_first_swap() -> None:
    state = create({"city": "paris"}, 21)
    obs = observe(state, 0)
    assert obs.opponent_hand is None and obs.opponent_hand_size == 4
    assert obs.hand == tuple(sorted(card.id for card in state.hands[0]))
    swapped = _play(state, 2)
    assert observe(swapped, 0).opponent_hand == tuple(sorted(c.id for c in swapped.hands[1]))


def test_the_opponents_hand_is_unknown_again_in_the_next_round() -> None:
    state = _play(create({"city": "paris"}, 21), 6)
    assert state.round == 1
    assert observe(state, 1).opponent_hand is None


def test_an_observation_never_contains_the_deck_order() -> None:
    state = create({"city": "barcelona"}, 8)
    text = json.dumps(observe(state, 0).to_json())
    assert "deck" not in text.replace("thief_deck_size", "").replace("gear_deck_size", "")
    assert observe(state, 0).gear_deck_size == 36
    assert not any(card.id in text for card in state.gear_deck)


def test_the_board_and_the_goods_are_public() -> None:
    state = _play(create({"city": "london"}, 4), 10)
    mine, theirs = observe(state, 0), observe(state, 1)
    for field in (
        "crews",
        "markers",
        "goods",
        "hq_goods",
        "coins",
        "hq_coins",
        "supply",
        "discards",
    ):
        assert getattr(mine, field) == getattr(theirs, field), field
    assert mine.crews[0] == tuple(tuple((c.id, t) for c, t in crew) for crew in state.crews[0])


def test_observations_do_not_change_when_only_hidden_cards_change() -> None:
    rng = random.Random(3)
    state = create({"city": "rome"}, 9)
    while not CAPER_EUROPE.is_terminal(state):
        for seat in (0, 1):
            assert observe(resample_hidden(state, seat, rng), seat) == observe(state, seat)
        state = apply(state, rng.choice(legal_actions(state)))


def test_resampling_really_changes_hidden_cards() -> None:
    state = create({"city": "paris"}, 10)
    other = resample_hidden(state, 0, random.Random(1))
    assert other.hands[1] != state.hands[1] or other.thief_deck != state.thief_deck
    assert other.hands[0] == state.hands[0]


def test_a_sampled_state_is_consistent_with_the_observation() -> None:
    for city, seed in (("paris", 12), ("barcelona", 13), ("rome", 14), ("london", 15)):
        rng = random.Random(seed)
        state = create({"city": city}, seed)
        while not CAPER_EUROPE.is_terminal(state):
            seat = state.to_move
            obs = observe(state, seat)
            sample = sample_state(obs, rng)
            assert observe(sample, seat) == obs
            assert legal_actions(sample) == legal_actions(state)
            assert CAPER_EUROPE.conserved(sample) == CAPER_EUROPE.conserved(state)
            state = apply(state, rng.choice(legal_actions(state)))


def test_an_observation_is_json_ready() -> None:
    state = _play(create({"city": "rome"}, 2), 15)
    data = json.loads(json.dumps(observe(state, 1).to_json()))
    assert data["seat"] == 1 and len(data["crews"]) == 2 and len(data["goods"]) == 3
    assert data["returning"] == -1
