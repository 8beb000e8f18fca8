"""One Swiss round as a maximum-weight perfect matching (internal to `swiss`).

Players are given in rank order (score, then seed), as indices 0..n-1. Each allowed pair becomes a
graph edge whose integer weight packs the pairing criteria lexicographically, most important
first, so that one call to networkx's blossom algorithm optimises them in priority order:

1. pairing bye: for an odd field a dummy vertex stands for the bye; its edge to player i weighs
   i + 1, so the lowest-ranked eligible player whose removal leaves the rest pairable gets it;
2. score: minus the squared score difference (in half points), so brackets pair internally and
   two short floats beat one long one (1 + 1 < 4): nobody is paired far outside their bracket;
3. seats: both seat preferences granted beats a mild one yielding beats a strong one yielding;
4. ranks: Dutch-like order inside a bracket (top half against bottom half, 1 v s/2+1, ...) and,
   across brackets, the floater nearest the bracket edge against the nearest player below.

Each tier's multiplier exceeds the largest possible sum of all lower tiers over a whole matching,
so no amount of lower-tier gain can buy a higher-tier loss. networkx uses only integer arithmetic
when all weights are integers, so these Python big ints are exact.

Speed: networkx's blossom runs one stage per matched pair and each stage scans every edge, so a
complete graph costs about n^3 / 4 edge visits: minutes in pure Python for 1,024 players. Larger
fields are therefore cut into consecutive blocks of about `block_size` ranks, each paired on its own
complete graph. Cuts fall only after an even number of ranks (at a score-group edge when one is
near), which never forces an extra float: with an even prefix every bracket can still float
exactly as it would in one piece. Inside a block, "top half against bottom half" applies to the
block's share of each bracket. If a block cannot be paired, or the bye could not go to the
lowest-ranked eligible player, the blocks grow fourfold, ending with the whole field, so blocks
can cost pairing quality only in the lower tiers, never validity.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import networkx as nx  # type: ignore[import-untyped]

from arena.tournament.errors import NoValidPairingError
from arena.tournament.seats import SeatPreference, may_meet, seat_quality

BLOCK_GROWTH = 4
MAX_SEAT_QUALITY = 2


@dataclass(frozen=True, slots=True)
class Entry:
    """What the matcher needs to know about the player at one rank."""

    score2: int  # score in half points (all scores are multiples of 1/2)
    bye_eligible: bool
    seat: SeatPreference
    blocked: frozenset[int]  # ranks this player must not meet (rematch, forbidden pair)


@dataclass(frozen=True, slots=True)
class Matching:
    """Pairs as (higher rank, lower rank), sorted by the higher rank; `bye` is a rank or None."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None


def match_round(entries: Sequence[Entry], *, seats_matter: bool, block_size: int) -> Matching:
    """Pair every player (the bye aside) or raise `NoValidPairingError`."""
    n = len(entries)
    lowest_eligible = max((i for i, e in enumerate(entries) if e.bye_eligible), default=None)
    if n % 2 and lowest_eligible is None:
        raise NoValidPairingError("the field is odd and every active entrant has had the bye")
    size = block_size
    while size < n:
        blocks = _blocks(entries, size, lowest_eligible)
        found = _solve_blocks(entries, blocks, seats_matter)
        # Blocks may force the bye upwards; only the whole field can show that the
        # lowest-ranked eligible player was really impossible.
        if found is not None and (found.bye is None or found.bye == lowest_eligible):
            return found
        size *= BLOCK_GROWTH
    found = _Block(entries, 0, n, seats_matter).solve()
    if found is None:
        raise NoValidPairingError(
            f"no pairing of {n} active entrants avoids rematches and forbidden pairs, gives at "
            "most one pairing bye to each entrant and keeps seats within limits"
        )
    return found


def _blocks(entries: Sequence[Entry], size: int, lowest_eligible: int | None) -> list[range]:
    """Cut ranks 0..n-1 into blocks of about `size`, each starting at an even rank."""
    n = len(entries)
    group_edges = [
        i for i in range(2, n, 2) if entries[i].score2 != entries[i - 1].score2
    ]  # even cuts that also keep a score group whole
    cuts = [0]
    while n - cuts[-1] > size + size // 2:
        target = cuts[-1] + size
        near = [c for c in group_edges if abs(c - target) <= size // 2]
        cuts.append(min(near, key=lambda c: (abs(c - target), c)) if near else target)
    if n % 2 and lowest_eligible is not None:
        while cuts[-1] > lowest_eligible:  # the odd last block must be able to give the bye
            cuts.pop()
    cuts.append(n)
    return [range(a, b) for a, b in pairwise(cuts)]


def _solve_blocks(
    entries: Sequence[Entry], blocks: list[range], seats_matter: bool
) -> Matching | None:
    pairs: list[tuple[int, int]] = []
    bye = None
    for block in blocks:
        found = _Block(entries, block.start, block.stop, seats_matter).solve()
        if found is None:
            return None
        pairs += found.pairs
        bye = found.bye if found.bye is not None else bye
    return Matching(tuple(sorted(pairs)), bye)


class _Block:
    """The weighted complete graph over ranks start..stop-1: groups, tier multipliers, edges."""

    def __init__(self, entries: Sequence[Entry], start: int, stop: int, seats_matter: bool):
        self.entries = entries
        self.start, self.stop = start, stop
        self.seats_matter = seats_matter
        size = stop - start
        self.group_start, self.group_end = _score_groups(entries, start, stop)
        edges_in_matching = (size + 1) // 2
        spread = entries[start].score2 - entries[stop - 1].score2
        self.rank_base = edges_in_matching * (size + 1) + 1
        self.seat_base = edges_in_matching * MAX_SEAT_QUALITY + 1
        self.score_max = spread * spread
        self.score_base = edges_in_matching * self.score_max + 1
        self.bye_unit = self.score_base * self.seat_base * self.rank_base

    def allowed(self, i: int, j: int) -> bool:
        a, b = self.entries[i], self.entries[j]
        return j not in a.blocked and (not self.seats_matter or may_meet(a.seat, b.seat))

    def weight(self, i: int, j: int) -> int:
        a, b = self.entries[i], self.entries[j]
        score_gap = a.score2 - b.score2
        score_tier = self.score_max - score_gap * score_gap
        seat_tier = seat_quality(a.seat, b.seat) if self.seats_matter else MAX_SEAT_QUALITY
        rank_tier = self.stop - self.start + 1 - self.rank_penalty(i, j)
        return (score_tier * self.seat_base + seat_tier) * self.rank_base + rank_tier

    def rank_penalty(self, i: int, j: int) -> int:
        """Distance of the pair (i < j) from the Dutch ideal, in ranks."""
        start, end = self.group_start[i], self.group_end[i]
        if start == self.group_start[j]:
            return abs((j - i) - (end - start) // 2)
        return (end - 1 - i) + (j - self.group_start[j])

    def solve(self) -> Matching | None:
        """Best perfect matching of the block (plus bye edges if it is odd), or None."""
        ranks = range(self.start, self.stop)
        # Ascending insertion order: networkx is deterministic for a fixed insertion order.
        edges = [
            (i, j, self.weight(i, j))
            for i in ranks
            for j in range(i + 1, self.stop)
            if self.allowed(i, j)
        ]
        bye_node = -1
        if len(ranks) % 2:
            edges += [
                (i, bye_node, (i + 1) * self.bye_unit)
                for i in ranks
                if self.entries[i].bye_eligible
            ]
        mates = _max_weight_matching(edges)
        if len(mates) != (len(ranks) + 1) // 2:
            return None
        bye = next((j for i, j in mates if i == bye_node), None)
        pairs = tuple(sorted((i, j) for i, j in mates if i != bye_node))
        return Matching(pairs, bye)


def _score_groups(
    entries: Sequence[Entry], start: int, stop: int
) -> tuple[dict[int, int], dict[int, int]]:
    """For each rank in start..stop-1, the first rank of its score group and one past its last
    (groups clipped to the block)."""
    starts: dict[int, int] = {}
    ends: dict[int, int] = {}
    first = start
    for i in range(start + 1, stop + 1):
        if i == stop or entries[i].score2 != entries[first].score2:
            for k in range(first, i):
                starts[k], ends[k] = first, i
            first = i
    return starts, ends


def _max_weight_matching(edges: list[tuple[int, int, int]]) -> list[tuple[int, int]]:
    """Typed wrapper around networkx: maximum-cardinality, then maximum-weight, matching.

    Returns the matched pairs as (smaller node, larger node).
    """
    graph = nx.Graph()
    graph.add_weighted_edges_from(edges)
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    return [(min(int(u), int(v)), max(int(u), int(v))) for u, v in matched]
