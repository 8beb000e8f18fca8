"""The static evaluation both Caper bots share: the score "if the game ended now" plus coins.

Only Caper is supported: the bots read Caper's observation and rebuild a full state from it.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

from arena.games.api import Observation
from arena.games.caper import rules, scoring
from arena.games.caper.observation import CaperObservation, sample_state
from arena.games.caper.state import FINAL_ROUND, MAX_GEAR_PER_THIEF, Action, ActionKind, State

# A coin buys roughly half a point of Gear later on (0.25-0.5 played best against 0-1); once it
# can no longer be spent it only breaks ties, so it is worth next to nothing.
COIN_VALUE = 0.5
SPENT_COIN_VALUE = 0.05
PLAYS_AT_FULL_VALUE = 3


def caper_observation(observation: Observation) -> CaperObservation:
    """The observation as Caper's own type; the built-in bots only know how to play Caper."""
    if not isinstance(observation, CaperObservation):
        raise TypeError(f"this bot plays Caper only, got {type(observation).__name__}")
    return observation


def determinize(observation: Observation, rng: random.Random) -> State:
    """One full state the seat cannot tell apart from the real one."""
    return sample_state(caper_observation(observation), rng)


def evaluate(state: State, seat: int, coin_value: float = COIN_VALUE) -> float:
    """Point margin for `seat` if the game ended now, plus spendable coins at `coin_value`."""
    totals = scoring.score(state).totals
    coins = state.coins[seat] - state.coins[1 - seat]
    return totals[seat] - totals[1 - seat] + coin_weight(state, seat, coin_value) * coins


def coin_weight(state: State, seat: int, coin_value: float) -> float:
    """What a coin is worth to `seat`: less as the plays that could spend it run out."""
    if state.round < FINAL_ROUND - 1:
        return coin_value
    if state.round >= FINAL_ROUND:
        return SPENT_COIN_VALUE
    # The last card of the last round is discarded for nothing: it spends no coin.
    plays_left = len(state.hands[seat]) - 1
    return max(SPENT_COIN_VALUE, coin_value * min(1.0, plays_left / PLAYS_AT_FULL_VALUE))


def action_values(
    state: State, legal: Sequence[Any], coin_value: float = COIN_VALUE
) -> list[float]:
    """The evaluation after each action of `legal`, for the seat to move in `state`."""
    seat = state.to_move
    # Listing primes the engine's cache of legal actions, so `apply` skips re-validation.
    rules.legal_actions(state)
    known: dict[Hashable, float] = {}
    values = []
    for action in legal:
        key = _effect_key(state, action)
        if key not in known:
            known[key] = evaluate(rules.apply(state, action), seat, coin_value)
        values.append(known[key])
    return values


def _effect_key(state: State, action: Action) -> Hashable:
    """Actions with equal keys leave equal scores and coins; scoring dominates a greedy move, and
    this skips about a third of it. Every discard gains the same coin, and scoring counts a crew
    by Location, so which Thief takes a Gear only matters when it makes that Thief full."""
    if action.kind is ActionKind.DISCARD:
        return ActionKind.DISCARD
    if action.kind is ActionKind.GEAR or action.kind is ActionKind.REPLAY:
        stack = state.board[state.to_move][action.location][action.thief]
        fills = len(stack) == MAX_GEAR_PER_THIEF
        return (action.kind, action.card, action.location, action.target, fills)
    return action


def best_action(
    state: State, legal: Sequence[Action], rng: random.Random, coin_value: float = COIN_VALUE
) -> Action:
    """An action of highest value; ties are broken at random so play is not predictable."""
    values = action_values(state, legal, coin_value)
    top = max(values)
    best = [action for action, value in zip(legal, values, strict=True) if value >= top - 1e-9]
    return best[0] if len(best) == 1 else best[rng.randrange(len(best))]
