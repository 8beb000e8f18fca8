"""Loading a board file: the procedural reference board Hadria-R1 (spec section 22.1) or an
explicit list of spaces and paths (the real board, once known).

Hadria-R1 has 4-fold rotational symmetry so that no seat is favoured: a palace of 17 spaces and
four identical outer districts on a grid of rings (3 next to the palace .. 8 at the city wall)
and lanes (0..4, clockwise) joined in a brick pattern. The file holds the grid's parameters and
the feature table; this module turns them into a `Board`, deterministically.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from arena.games.age_of_thieves.board import (
    OUTER,
    TOTALS,
    Board,
    District,
    Feature,
    Node,
    NodeKind,
    clockwise,
    make_board,
)
from arena.games.age_of_thieves.datafile import (
    DataError,
    Entry,
    Provenance,
    entries,
    entry,
    read,
    versions,
)
from arena.games.api import ConfigError

FORMAT = "age-of-thieves/board/1"
# Every board version stays loadable, so that a record replays on the board it was played on: its
# config's "board", else the current board, which changes only with a rules version bump.
BOARD_FILES = {"hadria-r1": "board_hadria_r1.json", "hadria-r2": "board_hadria_r2.json"}
CURRENT_BOARD = "hadria-r2"
Edge = tuple[str, str]


@dataclass(frozen=True, slots=True)
class DistrictInfo:
    id: District
    name: str
    german: str
    exit_kind: str  # "gate" or "ship"; "" for the palace
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class Grid:
    """The outer districts' grid (spec 22.1): ring k, lane j; space id e.g. "N32"."""

    rings: tuple[int, int]  # first and last ring
    lanes: int
    radial_parity: int  # (k, j)-(k+1, j) is a path iff (k + j) % 2 == radial_parity
    border_rings: tuple[int, ...]  # rings with a path (k, last lane)-(next district, k, 0)
    gate_link: tuple[int, int]  # the space the palace gate leads to
    dungeon_link: tuple[int, int]
    exit_links: tuple[tuple[int, int], ...]


@cache
def hadria(symmetric_sewers: bool = False, version: str = CURRENT_BOARD) -> Board:
    """The reference board (`version` one of BOARD_FILES); `symmetric_sewers` drops the
    palace's 5th sewer entrance."""
    return load_board(symmetric_sewers=symmetric_sewers, version=version)


def board_file(version: str) -> str:
    """The data file of board `version`; a clear error naming the versions otherwise."""
    if version not in BOARD_FILES:
        known = ", ".join(BOARD_FILES)
        raise ConfigError(f"unknown board {version!r}: the boards are {known}")
    return BOARD_FILES[version]


def load_board(
    text: str | None = None, symmetric_sewers: bool = False, version: str = CURRENT_BOARD
) -> Board:
    """The board of the package's file for `version`, or of `text` (a board file's JSON)."""
    file = read(board_file(version), text)
    file.only(*_FILE_KEYS)
    found = versions(file, FORMAT)
    name, provenance = file.text("name"), file.provenance()
    districts = _districts(file)
    layout = file.text("layout")
    if layout == "explicit":
        nodes, edges = _explicit(file)
    elif layout == "procedural":
        nodes, edges = _procedural(file, districts, symmetric_sewers)
    else:
        raise file.fail(f"'layout' must be 'procedural' or 'explicit', got {layout!r}")
    if symmetric_sewers:  # the spec's variant: the palace's 5th sewer entrance is dropped
        totals = {**TOTALS, Feature.SEWER_ENTRANCE: TOTALS[Feature.SEWER_ENTRANCE] - 1}
        return make_board(name, found, provenance, nodes, edges, totals)
    return make_board(name, found, provenance, nodes, edges)


_FILE_KEYS: tuple[str, ...] = (
    "format",
    "rules_version",
    "data_version",
    "name",
    "layout",
    "provenance",
    "districts",
    "grid",
    "features",
    "nodes",
    "edges",
)


def districts(text: str | None = None, version: str = CURRENT_BOARD) -> tuple[DistrictInfo, ...]:
    """The five districts with their names and provenance, palace first."""
    return tuple(_districts(read(board_file(version), text)).values())


def _districts(file: Entry) -> dict[District, DistrictInfo]:
    found: dict[District, DistrictInfo] = {}
    for raw in entries(file, "districts"):
        raw.only("id", "name", "german", "exit_kind", "provenance")
        id = raw.choice("id", District)
        exit_kind = raw.text("exit_kind", empty=True)
        if exit_kind not in (("",) if id is District.PALACE else ("gate", "ship")):
            raise raw.fail(f"'exit_kind' {exit_kind!r}: outer districts have gates or ships")
        info = DistrictInfo(id, raw.text("name"), raw.text("german"), exit_kind, raw.provenance())
        found[id] = info
    missing = [d.value for d in District if d not in found]
    if missing:
        raise file.fail(f"'districts' lacks district {missing[0]!r}")
    return found


def _procedural(
    file: Entry, districts: dict[District, DistrictInfo], symmetric_sewers: bool
) -> tuple[list[Node], list[Edge]]:
    grid = _grid(entry(f"{file.where}: grid", file.get("grid")))
    outer, palace = _features(file, grid, symmetric_sewers)
    nodes = [*_palace_nodes(palace)]
    edges = [*_palace_edges(grid)]
    for d in OUTER:
        nodes += _district_nodes(d, grid, outer, districts[d].exit_kind)
        edges += _district_edges(d, grid)
    return nodes, edges


def _grid(raw: Entry) -> Grid:
    raw.only(*_GRID_KEYS)
    rings = _pair(raw, raw.get("rings"), "rings")
    lanes = raw.integer("lanes", 2)
    grid = Grid(
        rings=rings,
        lanes=lanes,
        radial_parity=raw.integer("radial_parity"),
        border_rings=tuple(_int(raw, k, "border_rings") for k in raw.items("border_rings")),
        gate_link=_pair(raw, raw.get("gate_link"), "gate_link"),
        dungeon_link=_pair(raw, raw.get("dungeon_link"), "dungeon_link"),
        exit_links=tuple(_pair(raw, at, "exit_links") for at in raw.items("exit_links")),
    )
    for k, j in (grid.gate_link, grid.dungeon_link, *grid.exit_links):
        if not (rings[0] <= k <= rings[1] and 0 <= j < lanes):
            raise raw.fail(f"({k}, {j}) is off the grid of rings {rings} and {lanes} lanes")
    return grid


_GRID_KEYS: tuple[str, ...] = (
    "rings",
    "lanes",
    "radial_parity",
    "border_rings",
    "gate_link",
    "dungeon_link",
    "exit_links",
)


def _int(raw: Entry, value: Any, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise raw.fail(f"{key!r} must hold integers, got {value!r}")
    return value


def _pair(raw: Entry, value: Any, key: str) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise raw.fail(f"{key!r} must be a pair [ring, lane], got {value!r}")
    return _int(raw, value[0], key), _int(raw, value[1], key)


def _features(
    file: Entry, grid: Grid, symmetric_sewers: bool
) -> tuple[dict[tuple[int, int], Feature], dict[str, Feature]]:
    """The feature table: "k,j" positions repeat in every outer district; palace ids once."""
    outer: dict[tuple[int, int], Feature] = {}
    palace: dict[str, Feature] = {}
    for raw in entries(file, "features", label="at"):
        raw.only("at", "feature", "asymmetric", "provenance")
        feature, at = raw.choice("feature", Feature), raw.text("at")
        raw.provenance()  # checked here; `arena cards` shows the cards, the board is one entry
        if raw.raw.get("asymmetric", False) and symmetric_sewers:
            continue
        if at in _PALACE_IDS:
            palace[at] = feature
            continue
        try:
            k, j = (int(part) for part in at.split(","))
        except ValueError:
            raise raw.fail("'at' must be a palace space or 'ring,lane'") from None
        if not (grid.rings[0] <= k <= grid.rings[1] and 0 <= j < grid.lanes):
            raise raw.fail(f"({k}, {j}) is off the grid")
        outer[(k, j)] = feature
    return outer, palace


def _palace_ids() -> Iterator[str]:
    yield "T"
    for d in OUTER:
        yield from (f"P1{d.value}", f"P2{d.value}a", f"P2{d.value}b", f"PG{d.value}")


_PALACE_IDS = frozenset(_palace_ids())


def _palace_nodes(features: dict[str, Feature]) -> Iterator[Node]:
    for id in sorted(_PALACE_IDS):
        found = frozenset({features[id]}) if id in features else frozenset()
        yield Node(id, District.PALACE, NodeKind.SPACE, found)


def _palace_edges(grid: Grid) -> Iterator[Edge]:
    """T in the middle, a spoke to each P1d, an 8-ring of P2 spaces, and a gate per district."""
    k, j = grid.gate_link
    for d in OUTER:
        a, b, ring_next = f"P2{d.value}a", f"P2{d.value}b", f"P2{clockwise(d).value}a"
        yield ("T", f"P1{d.value}")
        yield from ((f"P1{d.value}", a), (f"P1{d.value}", b), (a, b), (b, ring_next))
        yield from ((f"PG{d.value}", a), (f"PG{d.value}", b), (f"PG{d.value}", f"{d.value}{k}{j}"))


def _district_nodes(
    d: District, grid: Grid, features: dict[tuple[int, int], Feature], exit_kind: str
) -> Iterator[Node]:
    for k in range(grid.rings[0], grid.rings[1] + 1):
        for j in range(grid.lanes):
            found = frozenset({features[(k, j)]}) if (k, j) in features else frozenset()
            yield Node(f"{d.value}{k}{j}", d, NodeKind.SPACE, found)
    yield Node(f"V{d.value}", d, NodeKind.DUNGEON)
    for i, _ in enumerate(grid.exit_links, start=1):
        yield Node(f"X{d.value}{i}", d, NodeKind.EXIT, exit_kind=exit_kind)


def _district_edges(d: District, grid: Grid) -> Iterator[Edge]:
    def at(k: int, j: int, district: District = d) -> str:
        return f"{district.value}{k}{j}"

    first, last = grid.rings
    for k in range(first, last + 1):
        yield from ((at(k, j), at(k, j + 1)) for j in range(grid.lanes - 1))
        if k < last:
            lanes = (j for j in range(grid.lanes) if (k + j) % 2 == grid.radial_parity)
            yield from ((at(k, j), at(k + 1, j)) for j in lanes)
    for k in grid.border_rings:
        yield (at(k, grid.lanes - 1), at(k, 0, clockwise(d)))
    yield (f"V{d.value}", at(*grid.dungeon_link))
    for i, link in enumerate(grid.exit_links, start=1):
        yield (f"X{d.value}{i}", at(*link))


def _explicit(file: Entry) -> tuple[list[Node], list[Edge]]:
    nodes = []
    for raw in entries(file, "nodes"):
        raw.only("id", "district", "kind", "features", "exit_kind")
        features = frozenset(_feature(raw, f) for f in raw.items("features"))
        kind, exit_kind = raw.choice("kind", NodeKind), raw.raw.get("exit_kind", "")
        district = raw.choice("district", District)
        nodes.append(Node(raw.text("id"), district, kind, features, str(exit_kind)))
    edges = []
    for i, pair in enumerate(file.items("edges")):
        if not (
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(e, str) for e in pair)
        ):
            raise DataError(f"{file.where}: edges[{i}] must be a pair of space ids, got {pair!r}")
        edges.append((pair[0], pair[1]))
    return nodes, edges


def _feature(raw: Entry, value: Any) -> Feature:
    try:
        return Feature(value)
    except ValueError:
        raise raw.fail(f"unknown feature {value!r}") from None


def explicit_json(board: Board, districts: tuple[DistrictInfo, ...]) -> dict[str, Any]:
    """`board` as an explicit board file: the starting point for entering the real board."""
    return {
        "format": FORMAT,
        "rules_version": board.versions.rules,
        "data_version": board.versions.data,
        "name": board.name,
        "layout": "explicit",
        "provenance": [_source_json(s) for s in board.provenance.sources],
        "districts": [
            {
                "id": d.id.value,
                "name": d.name,
                "german": d.german,
                "exit_kind": d.exit_kind,
                "provenance": [_source_json(s) for s in d.provenance.sources],
            }
            for d in districts
        ],
        "nodes": [
            {
                "id": n.id,
                "district": n.district.value,
                "kind": n.kind.value,
                "features": sorted(f.value for f in n.features),
                **({"exit_kind": n.exit_kind} if n.exit_kind else {}),
            }
            for n in board.nodes
        ],
        "edges": [list(edge) for edge in board.edges],
    }


def _source_json(source: Any) -> dict[str, str]:
    return {"tag": source.tag.value, "section": source.section, "covers": source.covers}
