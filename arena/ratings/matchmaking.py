"""Ladder matchmaking (pure): who plays whom next.

Bots that need games most go first: a high rating deviation or few rated results. Each is paired
with an opponent drawn at random, weighted towards similar ratings, where "similar" is measured
against both bots' uncertainty: a newcomer can meet anyone, two settled bots meet their peers.
Drawing rather than always taking the nearest keeps the pairings varied, and a seeded `rng` keeps
them reproducible.

Tables of three or more (the Snitch game) are drawn the same way, seat by seat (`choose_tables`);
their bots are rated by Weng-Lin only, put on the Glicko scale (`weng_lin_candidate`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from arena.ratings.glicko2 import GLICKO2_INITIAL_RATING, GLICKO2_INITIAL_RD
from arena.ratings.weng_lin import WENG_LIN_MU, WENG_LIN_SIGMA

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


# Weng-Lin's scale is Glicko's divided by this: its initial sigma, 25/3, is Glicko's 350 RD.
WENG_LIN_TO_GLICKO = GLICKO2_INITIAL_RD / WENG_LIN_SIGMA


def weng_lin_candidate(name: str, mu: float, sigma: float, games: int) -> Candidate:
    """A bot rated by Weng-Lin only (a table ladder), on the Glicko scale `closeness` uses."""
    return Candidate(
        name,
        GLICKO2_INITIAL_RATING + (mu - WENG_LIN_MU) * WENG_LIN_TO_GLICKO,
        sigma * WENG_LIN_TO_GLICKO,
        games,
    )


def choose_tables(
    candidates: Sequence[Candidate],
    size: int,
    slots: int,
    rng: random.Random,
    last_table: Mapping[str, Sequence[str]] | None = None,
) -> list[tuple[str, ...]]:
    """Up to `slots` disjoint tables of `size` bots (seat order random) from the idle
    `candidates`: the neediest bot first, then each seat drawn like a pair's opponent, weighted
    by closeness to every bot already at the table."""
    if size < 2:
        raise ValueError(f"a table needs at least 2 bots, not {size}")
    names = [c.name for c in candidates]
    if len(set(names)) != len(names):
        raise ValueError("matchmaking candidates must have distinct names")
    last = last_table or {}
    pool = sorted(candidates, key=lambda c: c.name)  # input order must not matter
    tables: list[tuple[str, ...]] = []
    while len(tables) < slots and len(pool) >= size:
        table = [max(pool, key=lambda c: need(c) + JITTER * rng.random())]
        while len(table) < size:
            others = [c for c in pool if c not in table]
            table.append(_table_mate(table, others, rng, last))
        pool = [c for c in pool if c not in table]
        seats = [c.name for c in table]
        rng.shuffle(seats)
        tables.append(tuple(seats))
    return tables


def _table_mate(
    table: Sequence[Candidate],
    others: Sequence[Candidate],
    rng: random.Random,
    last: Mapping[str, Sequence[str]],
) -> Candidate:
    met = {name for c in table for name in last.get(c.name, ())}
    weights = [
        math.prod(closeness(c, m) for m in table)
        * (1.0 + need(c))
        * (REPEAT_WEIGHT if c.name in met else 1.0)
        for c in others
    ]
    if sum(weights) <= 0.0:  # underflow: far from everyone, take the nearest to the table
        return min(others, key=lambda c: sum(abs(c.rating - m.rating) for m in table))
    return rng.choices(others, weights)[0]
