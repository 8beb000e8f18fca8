"""Where the replay viewer draws every space of an Age of Thieves board: a layout computed, not
stored.

The board files give no coordinates (the rulebook prints no board; Hadria is a graph of rings
and lanes, spec 22.1), so the layout is computed from what a space id says: `T` in the middle,
the palace spaces `P1d`, `P2da`/`P2db` and the gates `PGd` on circles around it, and an outer
space `dkj` (district d, ring k, lane j) at radius `ring k` and at the angle of lane j, the
twenty lanes of the four districts spread evenly clockwise from North at the top. Dungeons sit
in the gap between two districts next to the space they hang from, exits beyond the city wall.
A space whose id follows none of these forms (a board entered by hand) is put beside its placed
neighbours, so that any board draws. The same board always gets the same layout.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from arena.games.age_of_thieves import OUTER, Board, District, NodeKind, hadria
from arena.games.age_of_thieves.hadria import CURRENT_BOARD
from arena.games.api import ConfigError

SIZE = 1040  # the SVG's viewBox is SIZE x SIZE, the palace's centre in the middle
CENTRE = SIZE / 2
INNER_RING, OUTER_RING = 205.0, 440.0  # radii of the first and the last ring of a district
WALL = 468.0  # the city wall, between the last ring and the exits
EXIT_RADIUS = 500.0
LANE_DEGREES = 18.0  # 20 lanes around the city
# The compass direction of each outer district, in degrees clockwise from the +x axis (screen).
DIRECTION = {District.NORTH: -90.0, District.EAST: 0.0, District.SOUTH: 90.0, District.WEST: 180.0}
PALACE_RADII = {"P1": 55.0, "P2": 108.0, "PG": 158.0}
PALACE_RADIUS = 178.0  # the palace wall

_OUTER_ID = re.compile(r"^([NESW])(\d)(\d)$")
_PALACE_ID = re.compile(r"^(P1|P2|PG)([NESW])([ab]?)$")
_EXIT_ID = re.compile(r"^X([NESW])(\d)$")


@dataclass(frozen=True, slots=True)
class Layout:
    """The board and the point of each of its nodes, in viewBox units."""

    board: Board
    points: Mapping[str, tuple[float, float]]
    rings: tuple[int, int]  # the first and last ring met among the outer spaces

    def at(self, space: str) -> tuple[float, float]:
        return self.points[space]


def board_version(config: Mapping[str, object]) -> str:
    """The board a game of `config` is played on, as the engine reads its config."""
    return str(config.get("board", CURRENT_BOARD))


@cache
def layout_of(version: str) -> Layout:
    """The layout of board `version`; `ConfigError` for an unknown version."""
    return layout(hadria(version=version))


def safe_layout(config: Mapping[str, object]) -> Layout | None:
    """The layout of the board of `config`, or None for a board this code does not know."""
    try:
        return layout_of(board_version(config))
    except ConfigError:
        return None


def layout(board: Board) -> Layout:
    rings = _rings(board)
    points: dict[str, tuple[float, float]] = {}
    for node in board.nodes:
        found = _place(node.id, node.kind, board, rings)
        if found is not None:
            points[node.id] = found
    _place_the_rest(board, points)
    return Layout(board, points, rings)


def _rings(board: Board) -> tuple[int, int]:
    found = [int(m.group(2)) for n in board.nodes if (m := _OUTER_ID.match(n.id))]
    return (min(found), max(found)) if found else (3, 8)


def polar(degrees: float, radius: float) -> tuple[float, float]:
    angle = math.radians(degrees)
    return (
        round(CENTRE + radius * math.cos(angle), 1),
        round(CENTRE + radius * math.sin(angle), 1),
    )


def lane_angle(district: District, lane: float) -> float:
    """Lanes 0..4 run clockwise; lane 2 points the district's way."""
    return DIRECTION[district] + (lane - 2) * LANE_DEGREES


def ring_radius(ring: float, rings: tuple[int, int]) -> float:
    first, last = rings
    step = (OUTER_RING - INNER_RING) / max(1, last - first)
    return INNER_RING + (ring - first) * step


def _place(
    id: str, kind: NodeKind, board: Board, rings: tuple[int, int]
) -> tuple[float, float] | None:
    if id == "T":
        return (CENTRE, CENTRE)
    if m := _OUTER_ID.match(id):
        district, ring, lane = District(m.group(1)), int(m.group(2)), int(m.group(3))
        return polar(lane_angle(district, lane), ring_radius(ring, rings))
    if m := _PALACE_ID.match(id):
        part, district, side = m.group(1), District(m.group(2)), m.group(3)
        turn = {"a": -22.5, "b": 22.5, "": 0.0}[side]
        return polar(DIRECTION[district] + turn, PALACE_RADII[part])
    if kind is NodeKind.EXIT and (m := _EXIT_ID.match(id)):
        return _beside(id, board, EXIT_RADIUS, 0.0)
    if kind is NodeKind.DUNGEON:
        return _dungeon(id, board, rings)
    return None


def _beside(id: str, board: Board, radius: float, turn: float) -> tuple[float, float] | None:
    """At `radius`, at the angle of the one space `id` hangs from (turned by `turn` degrees)."""
    link = _OUTER_ID.match(board.neighbours(id)[0])
    if link is None:
        return None
    district, lane = District(link.group(1)), int(link.group(3))
    return polar(lane_angle(district, lane) + turn, radius)


def _dungeon(id: str, board: Board, rings: tuple[int, int]) -> tuple[float, float] | None:
    """In the gap between two districts, half a ring inside the space it hangs from."""
    link = _OUTER_ID.match(board.neighbours(id)[0])
    if link is None:
        return None
    lane = int(link.group(3))
    turn = -LANE_DEGREES / 2 if lane == 0 else LANE_DEGREES / 2
    radius = ring_radius(int(link.group(2)) - 0.55, rings)
    return _beside(id, board, radius, turn)


def _place_the_rest(board: Board, points: dict[str, tuple[float, float]]) -> None:
    """Each unplaced node beside the mean of its placed neighbours (in id order, repeatedly),
    else on a circle outside the city: a layout for any board, if not a pretty one."""
    left = [n.id for n in board.nodes if n.id not in points]
    for turn in range(len(left) + 1):
        placed = False
        for id in list(left):
            near = [points[n] for n in board.neighbours(id) if n in points]
            if near:
                x = sum(p[0] for p in near) / len(near) + 14.0 * (1 + turn % 3)
                y = sum(p[1] for p in near) / len(near) + 14.0
                points[id] = (round(x, 1), round(y, 1))
                left.remove(id)
                placed = True
        if not placed:
            break
    for i, id in enumerate(left):
        points[id] = polar(360.0 * i / len(left), EXIT_RADIUS)


def district_arc(district: District) -> tuple[float, float]:
    """The angles (degrees) a district's sector spans, from its lane 0 side to its lane 4 side."""
    middle = DIRECTION[district]
    return middle - 45.0, middle + 45.0


__all__ = ["OUTER", "Layout", "board_version", "district_arc", "layout", "layout_of"]
