"""Where a guard or captain goes when it moves towards a thief (spec D-6 and D-7), as pure
functions of the board, the fire tiles and the figures.

D-7: the shortest path in the graph without fire spaces; among equal ones the lexicographically
smallest sequence of node ids. D-27, a target cut off (by fire, or an exit, which no guard
enters): among the spaces reachable within the movement that are strictly nearer the target than
its own counting through fire, the nearest (ties: lowest id); none nearer, it stays, since it
never steps sideways. Guards never enter dungeons
or exits. D-6: the figure stops at the first space holding an arrestable thief; it may pass other
guards but not end on one, so it falls back to the last free space of its route.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import lru_cache

from arena.games.age_of_thieves.board import Board, NodeKind
from arena.games.api import GameError


@dataclass(frozen=True, slots=True)
class GuardMove:
    route: tuple[str, ...]  # the spaces entered, in order; empty if the figure stays
    end: str
    arrests: bool  # whether it ended on the space of an arrestable thief


def guard_route(
    board: Board, start: str, target: str, budget: int, fire: Collection[str] = ()
) -> tuple[str, ...]:
    """The spaces a guard at `start` enters moving up to `budget` towards `target` (D-7)."""
    return _route(board, start, target, budget, frozenset(fire))


# A route depends on nothing but its arguments, and guards cross the same few spaces with the
# same fire (mostly none) again and again: routes and the distances they derive from are kept.
@lru_cache(maxsize=1 << 16)
def _route(
    board: Board, start: str, target: str, budget: int, fire: frozenset[str]
) -> tuple[str, ...]:
    if not _open(board, start, fire):
        raise GameError(f"no guard can stand on {start!r}: fire, a dungeon or an exit")
    far = _distances(board, target, fire)
    if start in far:
        return _walk(board, start, far)[:budget]
    near, now = _distances(board, start, fire), board.distance(start, target)
    nearer = [s for s, steps in near.items() if steps <= budget and board.distance(s, target) < now]
    if not nearer:
        return ()
    best = min(nearer, key=lambda space: (board.distance(space, target), space))
    return _walk(board, start, _distances(board, best, fire))


def guard_move(
    board: Board,
    start: str,
    target: str,
    budget: int,
    fire: Collection[str] = (),
    guards: Collection[str] = (),
    arrestable: Collection[str] = (),
) -> GuardMove:
    """The move of one figure: `guards` are the other figures' spaces, `arrestable` the spaces
    holding a thief it would arrest (D-6)."""
    route = guard_route(board, start, target, budget, fire)
    stop = next((i for i, space in enumerate(route) if space in arrestable), len(route) - 1)
    route = route[: stop + 1]
    while route and route[-1] in guards:  # it may pass another guard but not end on him
        route = route[:-1]
    end = route[-1] if route else start
    return GuardMove(route, end, end in arrestable)


def _open(board: Board, space: str, fire: Collection[str]) -> bool:
    return space not in fire and board.node(space).kind is NodeKind.SPACE


@lru_cache(maxsize=1 << 12)
def _distances(board: Board, source: str, fire: frozenset[str]) -> Mapping[str, int]:
    """Steps from `source` to every space a guard can reach from it: no fire, dungeon or exit."""
    if not _open(board, source, fire):
        return {}
    found, queue = {source: 0}, deque([source])
    while queue:
        here = queue.popleft()
        for there in board.neighbours(here):
            if there not in found and _open(board, there, fire):
                found[there] = found[here] + 1
                queue.append(there)
    return found


def _walk(board: Board, start: str, towards: Mapping[str, int]) -> tuple[str, ...]:
    """The lexicographically smallest shortest path from `start` down the distances `towards`
    (start excluded): at each step the lowest-id neighbour one step nearer."""
    route, here = [], start
    while towards[here] > 0:
        here = min(n for n in board.neighbours(here) if towards.get(n) == towards[here] - 1)
        route.append(here)
    return tuple(route)
