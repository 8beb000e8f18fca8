"""What a built-in bot is: a policy from (observation, legal actions) to one of those actions.

Built-in bots see exactly what a remote bot sees over the wire — never the game state — so a
built-in bot and a network bot are interchangeable seats for the referee.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from arena.games.api import Game, Observation


class Bot(Protocol):
    """A seat's decision maker. `rng` is the referee's per-seat generator: use no other."""

    name: str

    def choose(
        self,
        game: Game[Any, Any],
        observation: Observation,
        legal: Sequence[Any],
        rng: random.Random,
    ) -> Any:
        """One element of `legal`."""
