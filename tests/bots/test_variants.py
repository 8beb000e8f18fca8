"""The built-in bots play every seat of the 3- and 4-player Caper games (section 12): the Snitch's
and the Lookouts' decisions too, each seat from its own observation only (V4, V9)."""

from __future__ import annotations

import random

import pytest

from arena.bots import make_bot
from arena.bots.heuristic import evaluate
from arena.games.api import Result
from arena.games.caper import CAPER
from arena.games.caper.observation import sample_state
from arena.games.caper.rules import apply, create, legal_actions
from arena.games.caper.state import SNITCH


def play(spec: str, players: int, seed: int) -> tuple[Result, set[str]]:
    """One game with a fresh `spec` bot in every seat; the kinds of action each role took."""
    bots = [make_bot(spec) for _ in range(players)]
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(players)]
    state = CAPER.create({"city": "rome", "players": players}, seed)
    taken: set[str] = set()
    while not CAPER.is_terminal(state):
        seat = CAPER.current_player(state)
        assert seat is not None
        legal = CAPER.legal_actions(state)
        action = bots[seat].choose(CAPER, CAPER.observation(state, seat), legal, rngs[seat])
        assert action in legal
        taken.add(f"{seat}:{action.kind.name.lower()}")
        state = CAPER.apply(state, action, seat)
    return CAPER.result(state), taken


@pytest.mark.parametrize("spec", ["random", "greedy", "search#8"])
@pytest.mark.parametrize("players", [3, 4])
def test_every_seat_plays_a_whole_game_legally(spec: str, players: int) -> None:
    result, taken = play(spec, players, seed=players)
    assert len(result.scores) == players
    if players == 3:
        assert "2:give" in taken  # V2: the Snitch's decisions
    else:
        assert {"2:send", "3:send"} <= taken  # V7: both Lookouts'
    assert {"0:thief", "1:thief"} <= taken


@pytest.mark.parametrize("players", [3, 4])
def test_a_sampled_state_fits_every_seats_observation(players: int) -> None:
    """What the greedy and search bots search from: consistent with the seat's view, with the
    same legal actions when that seat is to act."""
    rng = random.Random(players)
    state = create({"city": "london", "players": players}, 30 + players)
    while state.to_move >= 0:
        for seat in range(players):
            obs = CAPER.observation(state, seat)
            sample = sample_state(obs, rng)
            assert CAPER.observation(sample, seat) == obs
            assert CAPER.conserved(sample) == CAPER.conserved(state)
            if seat == state.to_move:
                assert legal_actions(sample) == legal_actions(state)
        state = apply(state, rng.choice(legal_actions(state)))


def test_the_snitch_values_its_lead_over_the_higher_mastermind() -> None:
    state = create({"city": "paris", "players": 3}, 4)
    rng = random.Random(4)
    while state.to_move >= 0:
        state = apply(state, rng.choice(legal_actions(state)))
    result = CAPER.result(state)
    cream, mint, snitch = result.scores
    assert evaluate(state, SNITCH) == snitch - max(cream, mint)


def test_a_lookout_values_its_teams_lead() -> None:
    state = create({"city": "paris", "players": 4}, 5)
    rng = random.Random(5)
    while state.to_move >= 0:
        state = apply(state, rng.choice(legal_actions(state)))
    scores = CAPER.result(state).scores
    for lookout, team in ((2, 0), (3, 1)):
        assert evaluate(state, lookout) == evaluate(state, team)
        coins = state.coins[team] - state.coins[1 - team]
        lead = scores[team] - scores[1 - team]
        assert abs(evaluate(state, lookout) - lead) <= abs(coins)  # spent coins count little
