"""The baseline: a uniformly random legal action."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from arena.games.api import Game, Observation


class RandomBot:
    name = "random"
    observes = False  # the referee need not build its view of the game

    def choose(
        self,
        game: Game[Any, Any],
        observation: Observation,
        legal: Sequence[Any],
        rng: random.Random,
    ) -> Any:
        return legal[rng.randrange(len(legal))]
