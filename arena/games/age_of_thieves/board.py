"""The city of Hadria as a graph: spaces, paths, districts and the printed features.

A `Board` is built either by the procedural builder of the reference board Hadria-R1
(`hadria.py`, spec section 22.1) or from an explicit list of nodes and paths, so that the real
board can replace the reference one as data. Either way `check_rules` enforces what the rulebook
states about the board (spec section 3), and every shortest distance is computed once.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from arena.games.age_of_thieves.datafile import DataError, Provenance, Versions


class District(StrEnum):
    PALACE = "P"
    NORTH = "N"  # Golden Domes
    EAST = "E"  # Empty Pot
    SOUTH = "S"  # Salty Docks
    WEST = "W"  # Hammer-blow


OUTER: tuple[District, ...] = (District.NORTH, District.EAST, District.SOUTH, District.WEST)


def clockwise(district: District) -> District:
    """The next outer district clockwise (N -> E -> S -> W -> N)."""
    return OUTER[(OUTER.index(district) + 1) % len(OUTER)]


class NodeKind(StrEnum):
    SPACE = "space"
    DUNGEON = "dungeon"  # a leaf; only arrested thieves enter it
    EXIT = "exit"  # an off-board gate or ship; stepping onto it leaves the city


class Feature(StrEnum):
    """What the board prints on a space (spec section 3), setup markings included."""

    GUARDHOUSE = "guardhouse"
    SWORD_GUARDHOUSE = "sword_guardhouse"  # a starting guard
    IMPERIAL_GUARDHOUSE = "imperial_guardhouse"  # receives a dropped Emperor's Jewel
    SEWER_ENTRANCE = "sewer_entrance"
    SEWER_EXIT = "sewer_exit"
    HIDEOUT = "hideout"
    GUARD_ALARM = "guard_alarm"
    CAPTAIN_ALARM = "captain_alarm"
    START = "start"
    GREEN_JEWEL = "green_jewel"
    TREASURY = "treasury"  # the Emperor's Jewel's start


GUARDHOUSES = frozenset({Feature.GUARDHOUSE, Feature.SWORD_GUARDHOUSE, Feature.IMPERIAL_GUARDHOUSE})


@dataclass(frozen=True, slots=True)
class Node:
    id: str
    district: District
    kind: NodeKind
    features: frozenset[Feature] = frozenset()
    exit_kind: str = ""  # "gate" or "ship" for an exit node

    @property
    def guardhouse(self) -> bool:
        return bool(self.features & GUARDHOUSES)


@dataclass(frozen=True, slots=True, eq=False)
class Board:
    """Nodes sorted by id (the spec's tie-breaks say "lowest id"), undirected paths as sorted
    pairs. Compared by identity: a board is built once and shared by every game on it."""

    name: str
    versions: Versions
    provenance: Provenance
    nodes: tuple[Node, ...]
    edges: tuple[tuple[str, str], ...]
    _by_id: Mapping[str, Node] = field(init=False, repr=False)
    _neighbours: Mapping[str, tuple[str, ...]] = field(init=False, repr=False)
    _distances: Mapping[str, Mapping[str, int]] = field(init=False, repr=False)
    # The answers of `with_feature` and `of_kind`, kept once asked (the rules ask the same few).
    _found: dict[tuple[str, str, str], tuple[str, ...]] = field(init=False, repr=False)
    _around: dict[tuple[str, int], tuple[str, ...]] = field(init=False, repr=False)
    _near: dict[tuple[str, int], frozenset[str]] = field(init=False, repr=False)
    _beyond: dict[tuple[str, int], frozenset[str]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        index = {node.id: i for i, node in enumerate(self.nodes)}
        around: list[list[str]] = [[] for _ in self.nodes]
        for a, b in self.edges:
            around[index[a]].append(b)
            around[index[b]].append(a)
        neighbours = tuple(tuple(sorted(ids)) for ids in around)
        ids = tuple(index)
        rows = (dict(zip(ids, _bfs(index, neighbours, i), strict=True)) for i in range(len(ids)))
        # Derived once, keyed by id: rules and bots ask for nodes, neighbours and distances
        # constantly. Plain dicts, private to the board, which never changes them.
        set_ = object.__setattr__
        set_(self, "_by_id", {node.id: node for node in self.nodes})
        set_(self, "_neighbours", dict(zip(ids, neighbours, strict=True)))
        set_(self, "_distances", dict(zip(ids, rows, strict=True)))
        set_(self, "_found", {})
        set_(self, "_around", {})
        set_(self, "_near", {})
        set_(self, "_beyond", {})

    def node(self, id: str) -> Node:
        try:
            return self._by_id[id]
        except KeyError:
            raise DataError(f"{self.name}: no space {id!r}") from None

    def neighbours(self, id: str) -> tuple[str, ...]:
        try:
            return self._neighbours[id]
        except KeyError:
            raise DataError(f"{self.name}: no space {id!r}") from None

    def distance(self, a: str, b: str) -> int:
        """Steps along paths, figures and fire ignored (spec 22.1); -1 if unreachable."""
        try:
            return self._distances[a][b]
        except KeyError:
            self.node(a)  # names the unknown space
            raise DataError(f"{self.name}: no space {b!r}") from None

    def around(self, id: str, steps: int) -> tuple[str, ...]:
        """The nodes at most `steps` from `id` (itself included), in node order."""
        found = self._around.get((id, steps))
        if found is None:
            row = self._distances.get(id) or self._distances[self.node(id).id]
            found = self._around[id, steps] = tuple(n for n, d in row.items() if 0 <= d <= steps)
        return found

    def near(self, id: str, steps: int) -> frozenset[str]:
        """The nodes at most `steps` from `id`, as a set."""
        found = self._near.get((id, steps))
        if found is None:
            found = self._near[id, steps] = frozenset(self.around(id, steps))
        return found

    def beyond(self, id: str, steps: int) -> frozenset[str]:
        """The nodes at least `steps` from `id`."""
        found = self._beyond.get((id, steps))
        if found is None:
            row = self._distances.get(id) or self._distances[self.node(id).id]
            found = self._beyond[id, steps] = frozenset(n for n, d in row.items() if d >= steps)
        return found

    def with_feature(self, feature: Feature, district: District | None = None) -> tuple[str, ...]:
        key = ("feature", feature.value, "" if district is None else district.value)
        found = self._found.get(key)
        if found is None:
            found = self._found[key] = tuple(
                n.id
                for n in self.nodes
                if feature in n.features and (district is None or n.district is district)
            )
        return found

    def of_kind(self, kind: NodeKind, district: District | None = None) -> tuple[str, ...]:
        key = ("kind", kind.value, "" if district is None else district.value)
        found = self._found.get(key)
        if found is None:
            found = self._found[key] = tuple(
                n.id
                for n in self.nodes
                if n.kind is kind and (district is None or n.district is district)
            )
        return found

    @property
    def spaces(self) -> tuple[str, ...]:
        return self.of_kind(NodeKind.SPACE)


def _bfs(
    index: Mapping[str, int], neighbours: tuple[tuple[str, ...], ...], start: int
) -> tuple[int, ...]:
    found = [-1] * len(index)
    found[start] = 0
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for id in neighbours[here]:
            there = index[id]
            if found[there] < 0:
                found[there] = found[here] + 1
                queue.append(there)
    return tuple(found)


def make_board(
    name: str,
    versions: Versions,
    provenance: Provenance,
    nodes: Iterable[Node],
    edges: Iterable[tuple[str, str]],
    totals: Mapping[Feature, int] | None = None,
) -> Board:
    """A board checked for a sound graph and for every board fact the rulebook states; `totals`
    replaces the rulebook's feature totals for a variant that departs from them on purpose."""
    ordered = tuple(sorted(nodes, key=lambda n: n.id))
    paths = _paths(name, ordered, edges)
    board = Board(name, versions, provenance, ordered, paths)
    check_rules(board, TOTALS if totals is None else totals)
    return board


def _paths(
    name: str, nodes: tuple[Node, ...], edges: Iterable[tuple[str, str]]
) -> tuple[tuple[str, str], ...]:
    ids = Counter(n.id for n in nodes)
    twice = sorted(id for id, count in ids.items() if count > 1)
    if twice:
        raise DataError(f"{name}: space {twice[0]!r} is defined twice")
    found: set[tuple[str, str]] = set()
    for a, b in edges:
        for end in (a, b):
            if end not in ids:
                raise DataError(f"{name}: path {a}-{b} names no space {end!r}")
        if a == b:
            raise DataError(f"{name}: path {a}-{b} joins a space to itself")
        pair = (a, b) if a < b else (b, a)
        if pair in found:
            raise DataError(f"{name}: path {a}-{b} is given twice")
        found.add(pair)
    return tuple(sorted(found))


# How many of each feature the rulebook fixes per outer district (spec section 3) [R].
PER_DISTRICT = {
    Feature.START: 1,
    Feature.IMPERIAL_GUARDHOUSE: 1,
    Feature.GUARD_ALARM: 2,
    Feature.CAPTAIN_ALARM: 2,
}
TOTALS = {  # over the whole board [R]
    Feature.SWORD_GUARDHOUSE: 12,
    Feature.SEWER_ENTRANCE: 5,
    Feature.SEWER_EXIT: 4,
    Feature.GREEN_JEWEL: 4,
    Feature.TREASURY: 1,
}


def check_rules(board: Board, totals: Mapping[Feature, int] = TOTALS) -> None:
    """Refuse a board the rules cannot be played on, naming the first fault."""
    fail = board.name + ": "
    start = board.nodes[0].id
    cut_off = [n.id for n in board.nodes if board.distance(start, n.id) < 0]
    if cut_off:
        raise DataError(f"{fail}space {cut_off[0]!r} cannot be reached from {start!r}")
    for feature, total in totals.items():
        found = len(board.with_feature(feature))
        if found != total:
            raise DataError(f"{fail}{total} spaces must be {feature.value}, found {found}")
    if board.with_feature(Feature.TREASURY, District.PALACE) != board.with_feature(
        Feature.TREASURY
    ):
        raise DataError(f"{fail}the treasury must be in the palace")
    for district in OUTER:
        _check_district(board, district)
    for node in board.nodes:
        _check_node(board, node)


def _check_district(board: Board, district: District) -> None:
    fail = f"{board.name}: district {district.value}: "
    for feature, count in PER_DISTRICT.items():
        found = len(board.with_feature(feature, district))
        if found != count:
            raise DataError(f"{fail}{count} spaces must be {feature.value}, found {found}")
    for kind, count in ((NodeKind.DUNGEON, 1), (NodeKind.EXIT, 2)):
        found = len(board.of_kind(kind, district))
        if found != count:
            raise DataError(f"{fail}it must have {count} {kind.value} node(s), found {found}")


def _check_node(board: Board, node: Node) -> None:
    fail = f"{board.name}: {node.id}: "
    if node.kind is not NodeKind.SPACE:
        if node.district is District.PALACE:
            raise DataError(f"{fail}the palace has no {node.kind.value}")
        if node.features:
            raise DataError(f"{fail}a {node.kind.value} node carries no features")
        if len(board.neighbours(node.id)) != 1:
            raise DataError(f"{fail}a {node.kind.value} node must be a leaf with one path")
    if (node.kind is NodeKind.EXIT) != (node.exit_kind in ("gate", "ship")):
        raise DataError(f"{fail}exit kind {node.exit_kind!r}: exits are gates or ships")
    if len(node.features & GUARDHOUSES) > 1:
        raise DataError(f"{fail}a space is at most one kind of guardhouse")
