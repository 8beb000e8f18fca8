"""Ladder matchmaking (pure): who plays whom next.

Bots that need games most go first: a high rating deviation or few rated results. Each is paired
with an opponent drawn at random, weighted towards similar ratings, where "similar" is measured
against both bots' uncertainty: a newcomer can meet anyone, two settled bots meet their peers.
Drawing rather than always taking the nearest keeps the pairings varied, and a seeded `rng` keeps
them reproducible.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from arena.ratings.glicko2 import GLICKO2_INITIAL_RATING, GLICKO2_INITIAL_RD

SPREAD = 150.0  # rating gap (on top of the deviations) at which a pairing is e^-1/2 as likely
JITTER = 0.25  # randomness in who goes first, so equally needy bots take turns
REPEAT_WEIGHT = 0.2  # a rematch of a bot's last pairing is this much less likely


@dataclass(frozen=True, slots=True)
class Candidate:
    name: str
    rating: float = GLICKO2_INITIAL_RATING
    rd: float = GLICKO2_INITIAL_RD
    games: int = 0


def need(candidate: Candidate) -> float:
    """How much a bot needs games, in (0, 2]: uncertainty plus scarcity of results."""
    return candidate.rd / GLICKO2_INITIAL_RD + 1.0 / (1.0 + candidate.games)


def closeness(a: Candidate, b: Candidate) -> float:
    """In (0, 1]: 1 for equal ratings, falling with the gap relative to the pair's uncertainty."""
    gap = (a.rating - b.rating) / math.hypot(SPREAD, a.rd, b.rd)
    return math.exp(-0.5 * gap * gap)


def choose_pairs(
    candidates: Sequence[Candidate],
    slots: int,
    rng: random.Random,
    last_opponent: Mapping[str, str] | None = None,
) -> list[tuple[str, str]]:
    """Up to `slots` disjoint pairs (seat order random) from the idle `candidates`."""
    names = [c.name for c in candidates]
    if len(set(names)) != len(names):
        raise ValueError("matchmaking candidates must have distinct names")
    last = last_opponent or {}
    pool = sorted(candidates, key=lambda c: c.name)  # input order must not matter
    pairs: list[tuple[str, str]] = []
    while len(pairs) < slots and len(pool) >= 2:
        first = max(pool, key=lambda c: need(c) + JITTER * rng.random())
        others = [c for c in pool if c is not first]
        second = _opponent(first, others, rng, last.get(first.name))
        pool = [c for c in others if c is not second]
        pair = (first.name, second.name)
        pairs.append(pair if rng.random() < 0.5 else (pair[1], pair[0]))
    return pairs


def _opponent(
    first: Candidate, others: Sequence[Candidate], rng: random.Random, last: str | None
) -> Candidate:
    weights = [
        closeness(first, c) * (1.0 + need(c)) * (REPEAT_WEIGHT if c.name == last else 1.0)
        for c in others
    ]
    if sum(weights) <= 0.0:  # every weight underflowed: far apart from everyone, take the nearest
        return min(others, key=lambda c: abs(c.rating - first.rating))
    return rng.choices(others, weights)[0]
