"""Rounds of tables: the round robin of tables, and seat orders that keep seats balanced.

Games of three or more sides are played at tables of k entrants. A round is a set of disjoint
tables plus byes for whoever the field leaves over; each table lists its entrants in seat order.

The round robin plays every k-subset of the field once when there are at most `MAX_TABLES` of
them. Beyond that (or when a number of rounds is asked for) it is a balanced design instead:
each round gives the byes to whoever has had fewest (seeded order breaks ties), then splits the
rest into tables so that pairs who have met least sit together (`grouping.partition`). With
three tables a round or more, how often two entrants meet then differs by at most 3 across all
pairs (2 in most fields, tested up to 40 entrants). Both are deterministic from the seed.

Seats: an entrant at a table is put in the seat it has used least (`seat_order`), so over the
rounds every entrant's seat counts stay within 2 of each other (tested). A duplicate table
(`placement.rotations`) gives everyone every seat instead.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from arena.tournament.errors import InvalidOptionError, InvalidResultError, TooFewEntrantsError
from arena.tournament.errors import check_entrants as _check_entrants
from arena.tournament.grouping import Field, Meetings, partition
from arena.tournament.placement import TableBye

MAX_TABLES = 120
PACKING_BUDGET = 20_000  # subsets looked at while packing one round
PACKING_ATTEMPTS = 20  # e.g. 9 entrants in threes: 30 rounds in the first, 29 at best (28 exist)
TABLE_SIZES = range(2, 7)  # games seat 2 to 4; tables of up to 6 pack in good time


@dataclass(frozen=True, slots=True)
class TableRound:
    """The tables (each in seat order) and byes of one round; every entrant appears once."""

    number: int
    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for entrant in [e for t in self.tables for e in t] + list(self.byes):
            if entrant in seen:
                raise InvalidResultError(f"{entrant!r} appears twice in round {self.number}")
            seen.add(entrant)

    @property
    def bye_records(self) -> tuple[TableBye, ...]:
        return tuple(TableBye(self.number, e) for e in self.byes)


SeatCounts = Mapping[str, Sequence[int]]


def seat_order(table: Sequence[str], counts: SeatCounts) -> tuple[str, ...]:
    """`table` reseated so that each entrant gets a seat it has used least (`counts[e][s]`:
    tables `e` played in seat `s`; missing entrants or seats count 0): the order with the least
    sum of squared excesses over each entrant's least used seat. Among equally good orders the
    one closest to the given order wins."""
    return Field(Meetings(), seats=counts).seated(table)


def seat_counts(tables: Iterable[Sequence[str]]) -> dict[str, list[int]]:
    """Tables played in each seat, per entrant, over `tables` (each in seat order)."""
    counts: dict[str, list[int]] = {}
    for table in tables:
        for seat, entrant in enumerate(table):
            used = counts.setdefault(entrant, [])
            used.extend([0] * (seat + 1 - len(used)))
            used[seat] += 1
    return counts


def table_round_robin(
    entrants: Sequence[str],
    size: int,
    *,
    rounds: int | None = None,
    seed: int = 0,
    max_tables: int = MAX_TABLES,
) -> list[TableRound]:
    """A round robin of tables of `size` (module docstring).

    With `rounds=None`: every subset if there are at most `max_tables`, else a balanced design of
    ceil((n - 1) / (size - 1)) rounds (about one meeting for every pair). With `rounds` given: a
    balanced design of that many rounds.
    """
    players = check_field(entrants, size)
    if rounds is not None and rounds < 1:
        raise InvalidOptionError(f"a round robin needs at least one round, got {rounds}")
    if rounds is None and math.comb(len(players), size) <= max_tables:
        groups = _subset_rounds(players, size, random.Random(seed))
    else:
        default = math.ceil((len(players) - 1) / (size - 1))
        groups = _design_rounds(players, size, rounds or default, random.Random(seed))
    return [
        TableRound(number, tables, tuple(e for e in players if all(e not in t for t in tables)))
        for number, tables in enumerate(groups, 1)
    ]


def check_field(entrants: Sequence[str], size: int) -> tuple[str, ...]:
    """The entrants as a tuple, if they can fill a table of `size` (2 to 6)."""
    if size not in TABLE_SIZES:
        raise InvalidOptionError(f"tables seat 2 to 6 entrants, got {size}")
    players = _check_entrants(entrants)
    if len(players) < size:
        raise TooFewEntrantsError(f"tables of {size} need at least {size} entrants")
    return players


def _subset_rounds(
    players: tuple[str, ...], size: int, rng: random.Random
) -> list[tuple[tuple[str, ...], ...]]:
    """Every subset once, in the fewest rounds found over `PACKING_ATTEMPTS` packings (the first
    in lexicographic order, the others shuffled by `rng`), each table seated."""
    attempts = [_packed(players, size, rng if i else None) for i in range(PACKING_ATTEMPTS)]
    counts = {e: [0] * size for e in players}
    rounds = []
    for chosen in min(attempts, key=len):
        seated = tuple(seat_order(t, counts) for t in chosen)
        _count_seats(seated, counts)
        rounds.append(seated)
    return rounds


def _packed(
    players: tuple[str, ...], size: int, rng: random.Random | None
) -> list[list[tuple[str, ...]]]:
    """Every subset, packed into rounds of as many disjoint subsets as can be found, those whose
    entrants have the most tables left first, so nobody is left with a tail of tables to play."""
    left = list(combinations(players, size))
    rounds = []
    while left:
        load = dict.fromkeys(players, 0)
        for table in left:
            for entrant in table:
                load[entrant] += 1
        if rng is not None:
            rng.shuffle(left)
        left.sort(key=lambda t: -sum(load[e] for e in t))  # stable: the shuffle breaks ties
        chosen = _packing(left, len(players) // size)
        left = [t for t in left if t not in chosen]
        rounds.append(chosen)
    return rounds


def _packing(subsets: list[tuple[str, ...]], wanted: int) -> list[tuple[str, ...]]:
    """The first `wanted` disjoint subsets found depth first (or the most found within a work
    budget): the greedy choice first, then backtracking."""
    best: list[tuple[str, ...]] = []
    work = 0

    def extend(chosen: list[tuple[str, ...]], busy: frozenset[str], start: int) -> bool:
        nonlocal best, work
        if len(chosen) > len(best):
            best = list(chosen)
        if len(best) == wanted or work > PACKING_BUDGET:
            return True
        for i in range(start, len(subsets)):
            work += 1
            if busy.isdisjoint(subsets[i]):
                chosen.append(subsets[i])
                if extend(chosen, busy | set(subsets[i]), i + 1):
                    return True
                chosen.pop()
        return False

    extend([], frozenset(), 0)
    return best


def _design_rounds(
    players: tuple[str, ...], size: int, count: int, rng: random.Random
) -> list[tuple[tuple[str, ...], ...]]:
    counts = {e: [0] * size for e in players}
    where = Field(Meetings(), seats=counts)
    byes = dict.fromkeys(players, 0)
    rounds = []
    for _ in range(count):
        order = list(players)
        rng.shuffle(order)
        order.sort(key=lambda e: byes[e])  # stable: the shuffle breaks ties
        spare = len(order) % size
        for entrant in order[:spare]:
            byes[entrant] += 1
        tables = tuple(partition(order[spare:], size, where))
        for table in tables:
            where.met.add(table)
        _count_seats(tables, counts)
        where.forget_seats()
        rounds.append(tables)
    return rounds


def _count_seats(tables: Iterable[tuple[str, ...]], counts: dict[str, list[int]]) -> None:
    for table in tables:
        for seat, entrant in enumerate(table):
            counts[entrant][seat] += 1
