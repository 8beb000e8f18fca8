"""One Swiss round as a maximum-weight perfect matching (internal to `swiss`).

Players are given in rank order (score, then seed), as indices 0..n-1. Each allowed pair becomes a
graph edge; for an odd field a bye vertex joins the graph, with an edge to every player who may
still have the bye. Every edge weight packs the pairing criteria lexicographically, most important
first, so that one maximum-cardinality, maximum-weight matching optimises them in priority order:

1. bye score: the bye goes to the lowest score group that can take it (FIDE: lowest score first);
2. score: minus the squared score difference (in half points) of every pair, so brackets pair
   internally and floats are few and short; this also picks, inside that score group, the bye
   that forces the fewest floats;
3. float height: minus each pair's score difference times the higher player's score, so that
   among equally short floats the higher score groups stay whole and floats leave from the
   lowest ones (FIDE Dutch pairs bracket by bracket from the top);
4. seats: both seat preferences granted beats a mild one yielding beats a strong one yielding;
5. float history (FIDE C.14-C.17): fewest players floated down who floated down last round (the
   bye counts as a downfloat, so last round's bye holder stays in their group), then fewest
   floated up who floated up last round, then the same two rounds back;
6. bye rank: other things equal, the lowest-ranked candidate gets the bye;
7. Dutch order: inside a score group, top half against bottom half (rank i against i + size/2,
   so round 1 is 1 v n/2+1, 2 v n/2+2, ...); across groups, the floater nearest the group edge
   against the top of the group below. Deviations cost their square, so when floats shift a
   group the whole fold shifts evenly instead of one pair breaking it. Between folds equally
   far off, a pair inside one half is an exchange (FIDE Dutch's term): the lower of two top-half
   players, or the higher of two bottom-half players, should be as near the middle as can be,
   as FIDE Dutch tries the exchanges of the halves' nearest players first.

Each tier's multiplier exceeds the largest possible sum of all lower tiers over a whole matching,
so no amount of lower-tier gain can buy a higher-tier loss. Weights are exact integers. (The float
history tier adds the same offset to every edge and every matching has the same number of edges,
so its multiplier need only exceed the largest difference between two matchings there.)

Speed: the blossom algorithm (rustworkx's Rust port of networkx's) costs about (pairs x edges), so
fields above `DENSE_LIMIT` keep only the edges a good pairing can use: partners within `WINDOW`
ranks of the Dutch ideal or of the player itself, and floats between the edges of neighbouring
score groups. The weights are the same as on the complete graph, so the structure of a round
never depends on the field's size; if the sparse graph has no perfect matching (rematches and
seat limits crowding a group), the complete graph decides.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import networkx as nx  # type: ignore[import-untyped]
import rustworkx as rx

from arena.tournament.errors import NoValidPairingError
from arena.tournament.floats import Float
from arena.tournament.seats import SeatPreference, may_meet, seat_quality

DENSE_LIMIT = 256  # fields up to this size are matched on the complete graph
WINDOW = 12  # sparse graphs: ranks either side of the ideal partner (and of the player)
FLOAT_REACH = 3  # sparse graphs: lower score groups a floater can reach
MAX_SEAT_QUALITY = 2
RUST_WEIGHT_LIMIT = 2**120  # rustworkx weights are 128-bit; beyond this, networkx's big ints


@dataclass(frozen=True, slots=True)
class Entry:
    """What the matcher needs to know about the player at one rank."""

    score2: int  # score in half points (all scores are multiples of 1/2)
    bye_eligible: bool
    seat: SeatPreference
    blocked: frozenset[int]  # ranks this player must not meet (rematch, forbidden pair)
    floats: tuple[Float, Float] = (Float.NONE, Float.NONE)  # last round, the round before


@dataclass(frozen=True, slots=True)
class Matching:
    """Pairs as (higher rank, lower rank), sorted by the higher rank; `bye` is a rank or None."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None


def match_round(entries: Sequence[Entry], *, seats_matter: bool) -> Matching:
    """Pair every player (the bye aside) or raise `NoValidPairingError`."""
    if len(entries) % 2 and not any(e.bye_eligible for e in entries):
        raise NoValidPairingError("the field is odd and every active entrant has had the bye")
    graph = _Graph(entries, seats_matter)
    if len(entries) > DENSE_LIMIT:
        found = graph.solve(graph.sparse_pairs())
        if found is not None:
            return found
    found = graph.solve(graph.all_pairs())
    if found is None:
        raise NoValidPairingError(
            f"no pairing of {len(entries)} active entrants avoids rematches and forbidden pairs, "
            "gives at most one pairing bye to each entrant and keeps seats within limits"
        )
    return found


class _Graph:
    """Score groups, tier multipliers and edge weights over the whole field."""

    def __init__(self, entries: Sequence[Entry], seats_matter: bool) -> None:
        self.entries = entries
        self.seats_matter = seats_matter
        n = len(entries)
        self.groups = _score_groups(entries)
        self.group_of = [
            g for g, (start, stop) in enumerate(self.groups) for _ in range(start, stop)
        ]
        pairs = n // 2
        spread = entries[0].score2 - entries[-1].score2 if entries else 0
        self.score_max = spread * spread
        self.height_max = entries[0].score2 * spread if entries else 0
        # A squared rank distance is below (2n)^2. An exchange's reach is below its group's
        # size, so one unit of distance outweighs any one pair's reach: reach breaks ties.
        self.reach_unit = max((stop - start for start, stop in self.groups), default=0)
        self.fold_max = 4 * n * n * self.reach_unit
        self.float_units, self.float_span = _float_units(entries)
        # Multipliers, least significant first: each exceeds the whole matching's lower tiers.
        self.bye_rank_base = pairs * (self.fold_max + 1) + 1
        self.float_base = self.bye_rank_base * (n + 1)
        self.seat_base = self.float_base * self.float_span
        self.height_base = self.seat_base * (pairs * MAX_SEAT_QUALITY + 1)
        self.score_base = self.height_base * (pairs * self.height_max + 1)
        self.bye_score_base = self.score_base * (pairs * self.score_max + 1)

    def allowed(self, i: int, j: int) -> bool:
        a, b = self.entries[i], self.entries[j]
        return j not in a.blocked and (not self.seats_matter or may_meet(a.seat, b.seat))

    def weight(self, i: int, j: int) -> int:
        a, b = self.entries[i], self.entries[j]
        gap = a.score2 - b.score2
        seats = seat_quality(a.seat, b.seat) if self.seats_matter else MAX_SEAT_QUALITY
        return (
            (self.score_max - gap * gap) * self.score_base
            + (self.height_max - a.score2 * gap) * self.height_base
            + seats * self.seat_base
            + (self.float_span - self.float_cost(i, j)) * self.float_base
            + self.fold_max
            - self.fold_penalty(i, j)
        )

    def bye_weight(self, i: int) -> int:
        lowness = self.entries[0].score2 - self.entries[i].score2 + 1
        floats = self.float_span - self.repeats(self.entries[i], Float.DOWN)
        return (
            lowness * self.bye_score_base + floats * self.float_base + (i + 1) * self.bye_rank_base
        )

    def float_cost(self, i: int, j: int) -> int:
        """Repeated floats of the pair (i < j): i floats down and j up if their scores differ."""
        a, b = self.entries[i], self.entries[j]
        if a.score2 == b.score2:
            return 0
        return self.repeats(a, Float.DOWN) + self.repeats(b, Float.UP)

    def repeats(self, entry: Entry, direction: Float) -> int:
        """Cost of floating `entry` in `direction` again, by how recently it last did."""
        last, before = self.float_units[direction]
        return (entry.floats[0] is direction) * last + (entry.floats[1] is direction) * before

    def fold_penalty(self, i: int, j: int) -> int:
        """Squared distance of the pair (i < j) from the Dutch ideal, in ranks, then how far
        from the middle of its group an exchange reaches."""
        start, stop = self.groups[self.group_of[i]]
        if j >= stop:
            distance = (stop - 1 - i) + (j - self.groups[self.group_of[j]][0])
            return distance * distance * self.reach_unit
        middle = start + (stop - start) // 2
        distance = j - i - (stop - start) // 2
        reach = middle - j if j < middle else i - middle + 1 if i >= middle else 0
        return distance * distance * self.reach_unit + reach

    def all_pairs(self) -> Iterator[tuple[int, int]]:
        n = len(self.entries)
        return ((i, j) for i in range(n) for j in range(i + 1, n))

    def sparse_pairs(self) -> Iterator[tuple[int, int]]:
        """Pairs near the Dutch ideal or near each other, and floats between group edges."""
        for g, (start, stop) in enumerate(self.groups):
            half = (stop - start) // 2
            for i in range(start, stop):
                near = set(range(i + 1, min(stop, i + WINDOW + 1)))
                near.update(range(max(i + 1, i + half - WINDOW), min(stop, i + half + WINDOW + 1)))
                if stop - i <= WINDOW:
                    for lower_start, lower_stop in self.groups[g + 1 : g + 1 + FLOAT_REACH]:
                        near.update(range(lower_start, min(lower_stop, lower_start + WINDOW)))
                yield from ((i, j) for j in sorted(near))

    def solve(self, candidates: Iterator[tuple[int, int]]) -> Matching | None:
        """Best perfect matching over `candidates` (plus bye edges if the field is odd)."""
        n = len(self.entries)
        edges = [(i, j, self.weight(i, j)) for i, j in candidates if self.allowed(i, j)]
        bye_node = n
        if n % 2:
            edges += [
                (i, bye_node, self.bye_weight(i)) for i in range(n) if self.entries[i].bye_eligible
            ]
        mates = _max_weight_matching(n + n % 2, edges)
        if len(mates) != (n + 1) // 2:
            return None
        bye = next((i for i, j in mates if j == bye_node), None)
        pairs = tuple(sorted((i, j) for i, j in mates if j != bye_node))
        return Matching(pairs, bye)


def _float_units(entries: Sequence[Entry]) -> tuple[dict[Float, tuple[int, int]], int]:
    """Unit costs of repeated floats, {direction: (after last round's, after the one before)},
    and a bound above any matching's total: mixed-radix digits in FIDE's order (down after last
    round, up after last round, down two rounds back, up two rounds back), each unit above the
    most the lower digits can add up to, since each entrant floats at most once a round."""
    count = {
        (ago, direction): sum(e.floats[ago] is direction for e in entries)
        for ago in (0, 1)
        for direction in (Float.DOWN, Float.UP)
    }
    up_before = 1
    down_before = up_before * (count[1, Float.UP] + 1)
    up_last = down_before * (count[1, Float.DOWN] + 1)
    down_last = up_last * (count[0, Float.UP] + 1)
    span = down_last * (count[0, Float.DOWN] + 1)
    return {Float.DOWN: (down_last, down_before), Float.UP: (up_last, up_before)}, span


def _score_groups(entries: Sequence[Entry]) -> list[tuple[int, int]]:
    """(first rank, one past the last rank) of each score group, best first."""
    groups: list[tuple[int, int]] = []
    first = 0
    for i in range(1, len(entries) + 1):
        if i == len(entries) or entries[i].score2 != entries[first].score2:
            groups.append((first, i))
            first = i
    return groups


def _max_weight_matching(nodes: int, edges: list[tuple[int, int, int]]) -> list[tuple[int, int]]:
    """Maximum-cardinality, then maximum-weight, matching, as (smaller node, larger node) pairs.

    Both libraries are deterministic for a fixed edge order, which is always ascending here.
    """
    if max((w for _, _, w in edges), default=0) < RUST_WEIGHT_LIMIT:
        graph = rx.PyGraph()
        graph.add_nodes_from(range(nodes))
        graph.add_edges_from(edges)
        matched = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    else:  # pragma: no cover - needs thousands of entrants and rounds
        nx_graph = nx.Graph()
        nx_graph.add_weighted_edges_from(edges)
        matched = nx.max_weight_matching(nx_graph, maxcardinality=True)
    return [(min(int(u), int(v)), max(int(u), int(v))) for u, v in matched]
