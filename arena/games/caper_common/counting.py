"""Counting both editions share: disjoint sets of cards, and the best partition of stolen goods.

Sets (classic "Set counting", Europe R15): every card is used in at most one set per ability, and
an "any gear" slot takes any Gear not used by a colour slot, so with n_i cards of colour i needed
c_i per set, G Gear in all, a "any gear" slots and T Thieves needed t per set:

    sets = min(n_i // c_i for each colour, G // (sum c_i + a), T // t)

(terms without slots left out). Goods: sets of 1, 2 or 3 different types, each token in one set.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from itertools import combinations


def disjoint_sets(
    colours: Iterable[tuple[int, int]],
    any_gear: int = 0,
    gear: int = 0,
    thief_slots: int = 0,
    thieves: int = 0,
) -> int:
    """How many disjoint sets fit: `colours` holds (cards of that colour, slots per set)."""
    best = -1
    gear_slots = any_gear
    for have, need in colours:
        gear_slots += need
        sets = have // need
        if best < 0 or sets < best:
            best = sets
    if gear_slots:
        sets = gear // gear_slots
        if best < 0 or sets < best:
            best = sets
    if thief_slots:
        sets = thieves // thief_slots
        if best < 0 or sets < best:
            best = sets
    return max(best, 0)


Partition = tuple[tuple[int, ...], ...]  # sets of type indices


@lru_cache(maxsize=4096)
def best_partition(counts: tuple[int, ...], values: tuple[int, int, int]) -> tuple[int, Partition]:
    """The best score for `counts` tokens of each type, and the sets that reach it; a set of
    1, 2 or 3 different types scores values[0], [1] or [2]. Exhaustive: the specs ask for the
    true optimum and holdings are small."""
    best: tuple[int, Partition] = (0, ())
    present = [i for i, n in enumerate(counts) if n]
    for size in (3, 2, 1):
        for chosen in combinations(present, size):
            rest = tuple(n - (i in chosen) for i, n in enumerate(counts))
            value, sets = best_partition(rest, values)
            value += values[size - 1]
            if value > best[0]:
                best = (value, (chosen, *sets))
    return best
