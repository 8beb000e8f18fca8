"""Named random streams (spec section 22.7): one master seed, one independent stream per use.

Each draw is a pure function of the master seed, the stream's name and how many draws that stream
has made before, so the streams are values an immutable game state can carry, a replay repeats
them exactly, and a new feature drawing from its own stream shifts no other stream.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from arena.games.api import GameError

T = TypeVar("T")

STREAMS = frozenset(
    {
        "setup.thieves",  # random thief assignment
        "setup.initial_roll",  # the initial d8 roll, re-rolls of ties included (D-15)
        "deck.action",  # shuffle and every reshuffle
        "deck.calm",  # shuffle and selection of 10 of 12
        "deck.alarm",  # shuffle and selection of 5 of 11
        "deck.district",  # every draw and reshuffle
        "tiles.city",  # shuffle and placement over the guardhouses sorted by node id
        "dice.guard",  # guard initiative
    }
)
POLICY = "policy."  # default choices: "policy.yellow_jewel", "policy.start_field"...


@dataclass(frozen=True, slots=True)
class Streams:
    """The master seed and the number of draws made so far from each stream."""

    seed: int
    used: tuple[tuple[str, int], ...] = ()  # (stream, draws), sorted by stream

    def __reduce__(self) -> tuple[type[Streams], tuple[int, tuple[tuple[str, int], ...]]]:
        """Pickle and deepcopy rebuild streams through their constructor: the compiled
        engine's frozen class lacks the __setstate__ a dataclass has in Python."""
        return type(self), (self.seed, self.used)

    def draws(self, name: str) -> int:
        return dict(self.used).get(check(name), 0)

    def rng(self, name: str) -> tuple[random.Random, Streams]:
        """A generator for the next draw of `name`, and the streams after that draw."""
        used = dict(self.used)
        n = used.get(check(name), 0)
        digest = hashlib.sha256(f"age-of-thieves/{self.seed}/{name}/{n}".encode()).digest()
        used[name] = n + 1
        return random.Random(int.from_bytes(digest[:8], "big")), Streams(
            self.seed, tuple(sorted(used.items()))
        )

    def roll(self, name: str, sides: int = 8) -> tuple[int, Streams]:
        rng, after = self.rng(name)
        return rng.randint(1, sides), after

    def shuffle(self, name: str, items: Sequence[T]) -> tuple[tuple[T, ...], Streams]:
        rng, after = self.rng(name)
        shuffled = list(items)
        rng.shuffle(shuffled)
        return tuple(shuffled), after

    def choice(self, name: str, items: Sequence[T]) -> tuple[T, Streams]:
        if not items:
            raise GameError(f"stream {name!r}: nothing to choose from")
        rng, after = self.rng(name)
        return items[rng.randrange(len(items))], after


def check(name: str) -> str:
    """`name` if it is one of the spec's streams or a `policy.` stream."""
    if name in STREAMS or (name.startswith(POLICY) and len(name) > len(POLICY)):
        return name
    known = ", ".join(sorted(STREAMS))
    raise GameError(f"unknown random stream {name!r}: the streams are {known} and policy.*")
