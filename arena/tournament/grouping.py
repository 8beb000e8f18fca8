"""Split a field into tables of k and seat them (internal helper of pods and the round robin).

Both Swiss pods and the balanced round robin of tables need the same thing: cut n entrants (n a
multiple of k, byes already taken out) into tables, minimising first how often the pairs inside
the tables have met before, then how many entrants must take a seat they have already used twice
more than their least used one (a hard limit in spirit, like FIDE's absolute colour rule), then
how far apart their scores are, then how well their seat histories fit. The cost of a table is
`(meetings, overloads, spread, seats)`: the sum over its pairs of their earlier meetings, the
overloads and seat cost of its best seating (`best_seating`), and between the two the sum over
its pairs of their squared score difference. Costs add up and compare as tuples.

The search is a depth-first branch and bound in priority order: the best unseated entrant heads
the next table and picks its k - 1 companions among the next `WINDOW` unseated entrants, cheapest
table first. With at most `WINDOW + 1` entrants this is exhaustive, hence optimal; a larger field
takes the first (greedy) dive, with a window narrowed for large tables, then swaps entrants
between tables while that removes meetings (a large field has so much room that this is all it
needs).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

WINDOW = 11
LARGE_OPTIONS = 64  # in a large field, the window shrinks so a head has at most this many tables
EXACT_BUDGET = 200_000  # work (tables costed, entrants copied) a small field may take; a safety
# valve, as an exhaustive search of WINDOW + 1 entrants stays well below it

Cost = tuple[int, int, float, int]
Table = tuple[str, ...]
ZERO: Cost = (0, 0, 0.0, 0)
OVERLOAD = 2  # excess at which a seat counts as overloaded


class Meetings:
    """How often each pair of entrants has shared a table."""

    def __init__(self, tables: Iterable[Sequence[str]] = ()) -> None:
        self._met: dict[str, dict[str, int]] = {}
        for table in tables:
            self.add(table)

    def add(self, table: Sequence[str]) -> None:
        for a, b in combinations(table, 2):
            self._met.setdefault(a, {})[b] = self.count(a, b) + 1
            self._met.setdefault(b, {})[a] = self.count(b, a) + 1

    def count(self, a: str, b: str) -> int:
        return self._met.get(a, {}).get(b, 0)


def seat_excess(used: Sequence[int], size: int) -> tuple[int, ...]:
    """How many more times an entrant sat in each of `size` seats than in its least used one."""
    padded = [*used[:size], *[0] * (size - len(used))]
    low = min(padded)
    return tuple(count - low for count in padded)


def best_seating(excess: Sequence[tuple[int, ...]]) -> tuple[int, int, tuple[int, ...]]:
    """The best seating of entrants with these seat excesses: `(overloads, cost, order)`,
    `order[s]` the entrant (by position) in seat s. Overloads count entrants put in a seat with
    an excess of `OVERLOAD` or more; the cost adds each entrant's squared excess in its seat."""
    # Solved for the excesses in sorted order, so that tables whose entrants have the same
    # histories in another order share one cached answer.
    by_excess = sorted(range(len(excess)), key=lambda who: excess[who])
    overloads, cost, order = _best_sorted_seating(tuple(excess[who] for who in by_excess))
    return overloads, cost, tuple(by_excess[who] for who in order)


@lru_cache(maxsize=1 << 16)
def _best_sorted_seating(
    excess: tuple[tuple[int, ...], ...],
) -> tuple[int, int, tuple[int, ...]]:
    # Seats are filled in order; for each set of entrants seated so far only the best partial
    # seating can lead to the best whole one (costs add up, and the order breaks ties as a
    # prefix), so this is k * 2^k steps instead of k! orders.
    size = len(excess)
    best: dict[int, tuple[int, int, tuple[int, ...]]] = {0: (0, 0, ())}
    for seat in range(size):
        filled: dict[int, tuple[int, int, tuple[int, ...]]] = {}
        for mask, (overloads, cost, order) in best.items():
            for who in range(size):
                if mask >> who & 1:
                    continue
                extra = excess[who][seat]
                option = (overloads + (extra >= OVERLOAD), cost + extra**2, (*order, who))
                key = mask | 1 << who
                if key not in filled or option < filled[key]:
                    filled[key] = option
        best = filled
    return best[(1 << size) - 1]


@dataclass(slots=True)
class Field:
    """What the cost of a table depends on; entrants missing from `score` or `seats` have 0
    points and no seat history."""

    met: Meetings
    score: Mapping[str, float] = field(default_factory=dict)
    seats: Mapping[str, Sequence[int]] = field(default_factory=dict)
    _excess: dict[tuple[str, int], tuple[int, ...]] = field(default_factory=dict, init=False)

    def cost(self, table: Sequence[str]) -> Cost:
        meetings, spread = 0, 0.0
        for a, b in combinations(table, 2):
            meetings += self.met.count(a, b)
            spread += (self.score.get(a, 0.0) - self.score.get(b, 0.0)) ** 2
        overloads, seats, _ = best_seating(self.excess(table))
        return meetings, overloads, spread, seats

    def seated(self, table: Sequence[str]) -> Table:
        """`table` in its best seat order."""
        return tuple(table[who] for who in best_seating(self.excess(table))[2])

    def excess(self, table: Sequence[str]) -> tuple[tuple[int, ...], ...]:
        size = len(table)
        known = self._excess
        for e in table:
            if (e, size) not in known:
                known[e, size] = seat_excess(self.seats.get(e, ()), size)
        return tuple(known[e, size] for e in table)

    def forget_seats(self) -> None:
        """Call after changing `seats`."""
        self._excess.clear()


def partition(order: Sequence[str], size: int, where: Field) -> list[Table]:
    """Tables of `size` covering `order` (best first; `len(order)` a multiple of `size`) with the
    lowest cost found, each in its best seat order."""
    search = _Search(size, where, exact=len(order) <= WINDOW + 1)
    search.run(list(order), [], ZERO)
    tables = list(search.best)
    _swap_out_meetings(tables, where)
    return [where.seated(t) for t in tables]


class _Search:
    def __init__(self, size: int, where: Field, exact: bool) -> None:
        self.size, self.where = size, where
        self.best: list[Table] = []
        self.best_cost: Cost = (1 << 62, 0, 0.0, 0)
        self.work = 0
        # Backtracking in a large field only reshuffles its last few tables (measured: no
        # better than the swaps that follow, at ten times the time): one dive is enough there.
        self.budget = EXACT_BUDGET if exact else 0
        self.window = WINDOW if exact else _large_window(size)

    def run(self, unseated: list[str], tables: list[Table], cost: Cost) -> None:
        if not unseated:
            if cost < self.best_cost:
                self.best, self.best_cost = list(tables), cost
            return
        head, rest = unseated[0], unseated[1:]
        options = [
            (self.where.cost(table), table)
            for table in ((head, *c) for c in combinations(rest[: self.window], self.size - 1))
        ]
        self.work += len(options) + len(rest)
        options.sort(key=lambda option: option[0])  # stable: rank order breaks cost ties
        for extra, table in options:
            total = _add(cost, extra)
            if total >= self.best_cost:
                break  # the options are sorted, so none after this one can do better
            if self.work > self.budget and self.best:
                return
            tables.append(table)
            self.run([e for e in rest if e not in table], tables, total)
            tables.pop()


def _swap_out_meetings(tables: list[Table], where: Field) -> None:
    """Swap single entrants between tables while that lowers the number of meetings."""
    costs = [where.cost(t) for t in tables]
    improved = True
    while improved:
        improved = False
        for i in range(len(tables)):
            if costs[i][0] and _best_swap(i, tables, costs, where):
                improved = True


def _best_swap(i: int, tables: list[Table], costs: list[Cost], where: Field) -> bool:
    best: tuple[Cost, int, Table, Table] | None = None
    for j, other in enumerate(tables):
        if j == i:
            continue
        before = _add(costs[i], costs[j])
        for a in tables[i]:
            for b in other:
                new_i = tuple(b if e == a else e for e in tables[i])
                new_j = tuple(a if e == b else e for e in other)
                after = _add(where.cost(new_i), where.cost(new_j))
                if after[0] < before[0]:
                    gain = _less(after, before)
                    if best is None or gain < best[0]:
                        best = (gain, j, new_i, new_j)
    if best is None:
        return False
    _, j, tables[i], tables[j] = best
    costs[i], costs[j] = where.cost(tables[i]), where.cost(tables[j])
    return True


def _large_window(size: int) -> int:
    """The widest window up to `WINDOW` offering at most `LARGE_OPTIONS` tables to a head."""
    fits = [w for w in range(size - 1, WINDOW + 1) if math.comb(w, size - 1) <= LARGE_OPTIONS]
    return max(fits, default=size - 1)


def _add(a: Cost, b: Cost) -> Cost:
    return a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]


def _less(a: Cost, b: Cost) -> Cost:
    return a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3]


def repeats(tables: Iterable[Sequence[str]], met: Meetings) -> int:
    """Earlier meetings between pairs that share a table in `tables`."""
    return sum(met.count(a, b) for t in tables for a, b in combinations(t, 2))
