"""The static evaluation the greedy and search bots share: the score "if the game ended now" (each
edition's own scoring) plus coins.

The bots read an observation and rebuild full states from it through the game's `GameSupport`:
both Caper editions are supported.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

from arena.bots.support import for_observation, for_state
from arena.games.api import Observation
from arena.games.caper_common.draft import FINAL_ROUND

# A coin buys roughly half a point of Gear later on (0.25-0.5 played best against 0-1); once it
# can no longer be spent it only breaks ties, so it is worth next to nothing.
COIN_VALUE = 0.5
SPENT_COIN_VALUE = 0.05
PLAYS_AT_FULL_VALUE = 3


def determinize(observation: Observation, rng: random.Random) -> Any:
    """One full state the seat cannot tell apart from the real one."""
    return for_observation(observation).sample_state(observation, rng)


def evaluate(state: Any, seat: int, coin_value: float = COIN_VALUE) -> float:
    """Point margin for `seat` if the game ended now, plus spendable coins at `coin_value`
    (a Lookout counts its Mastermind's coins; the Snitch has none)."""
    support = for_state(state)
    margin = support.margin(state, support.totals(state), seat)
    if seat >= 2 and getattr(state, "players", 2) == 3:
        return margin
    side = seat % 2
    coins: int = state.coins[side] - state.coins[1 - side]
    return margin + coin_weight(state, side, coin_value) * coins


def coin_weight(state: Any, seat: int, coin_value: float) -> float:
    """What a coin is worth to `seat`: less as the plays that could spend it run out."""
    if state.round < FINAL_ROUND - 1:
        return coin_value
    if state.round >= FINAL_ROUND:
        return SPENT_COIN_VALUE
    # The last card of the last round is discarded for nothing: it spends no coin.
    plays_left = len(state.hands[seat]) - 1
    return max(SPENT_COIN_VALUE, coin_value * min(1.0, plays_left / PLAYS_AT_FULL_VALUE))


def action_values(state: Any, legal: Sequence[Any], coin_value: float = COIN_VALUE) -> list[float]:
    """The evaluation after each action of `legal`, for the seat to move in `state`."""
    seat = state.to_move
    support = for_state(state)
    # Listing primes the engine's cache of legal actions, so `apply` skips re-validation.
    support.legal_actions(state)
    known: dict[Hashable, float] = {}
    values = []
    for action in legal:
        key = support.effect_key(state, action)
        if key not in known:
            known[key] = evaluate(support.apply(state, action), seat, coin_value)
        values.append(known[key])
    return values


def best_action(
    state: Any, legal: Sequence[Any], rng: random.Random, coin_value: float = COIN_VALUE
) -> Any:
    """An action of highest value; ties are broken at random so play is not predictable."""
    values = action_values(state, legal, coin_value)
    top = max(values)
    best = [action for action, value in zip(legal, values, strict=True) if value >= top - 1e-9]
    return best[0] if len(best) == 1 else best[rng.randrange(len(best))]
