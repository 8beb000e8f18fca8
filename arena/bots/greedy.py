"""A one-ply bot: the legal action that leaves the best score "if the game ended now"."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from arena.bots import aot_greedy
from arena.bots.heuristic import COIN_VALUE, best_action, determinize
from arena.games.age_of_thieves.observation import AgeOfThievesObservation
from arena.games.api import Game, Observation


class GreedyBot:
    """Sees only its observation: it samples one consistent hidden state, which is enough
    because the immediate effects of its own action never depend on hidden cards."""

    name = "greedy"

    def __init__(self, coin_value: float = COIN_VALUE) -> None:
        self.coin_value = coin_value
        self.starts: aot_greedy.Starts = {}  # Age of Thieves: where each movement began

    def choose(
        self,
        game: Game[Any, Any],
        observation: Observation,
        legal: Sequence[Any],
        rng: random.Random,
    ) -> Any:
        if len(legal) == 1:
            return legal[0]
        if isinstance(observation, AgeOfThievesObservation):  # rules, not a one-ply score
            return aot_greedy.choose(observation, legal, rng, self.starts)
        state = determinize(observation, rng)
        return best_action(state, legal, rng, self.coin_value)
