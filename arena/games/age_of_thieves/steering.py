"""Guards a card moves freely (G01 Beacon up to 4 spaces, G04 Confusing Gas 0-2 each): the
player steers the guard one space at a time, since whoever moves another figure "decides freely
how, within the card text" (section 9), and the way matters: entering a visible thief's space
ends the guard's move with his arrest (G01 [R-ex], section 16).

A steered guard never enters fire, a dungeon or an exit; it may pass other figures but not end
on one (D-7), so a step is offered only if some free space can still be reached from it. The
guard stays on its space until it stops, so no state between two steps has two figures on a
space (22.8). The walk is the task data `origin>here>left`, then `;` and what follows it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from arena.games.age_of_thieves.board import NodeKind
from arena.games.age_of_thieves.guards import arrest_at, relocate
from arena.games.age_of_thieves.queries import board, figures_at
from arena.games.age_of_thieves.state import Action, State
from arena.games.age_of_thieves.targeting import ask_fx, catches

After = Callable[[State, str], State]  # what the card does once the guard has stopped


def steer(state: State, seat: int, card: str, walk: tuple[str, str, int], rest: str = "") -> State:
    """Ask `seat` where the guard of `walk` (origin, current space, steps left) goes next."""
    origin, here, left = walk
    return ask_fx(
        state, seat, card, options(state, origin, here, left), 1, f"{origin}>{here}>{left};{rest}"
    )


def options(state: State, origin: str, here: str, left: int) -> list[Action]:
    """`stop` where the guard may end, and `to` each neighbour it may step onto."""
    found = [Action("stop")] if _may_end(state, origin, here) else []
    if left > 0:
        found += [
            Action("to", there)
            for there in board().neighbours(here)
            if _open(state, there) and _way_on(state, origin, there, left - 1)
        ]
    return found


def step(state: State, seat: int, card: str, data: str, action: Action, after: After) -> State:
    """Apply `stop` or one `to` of the walk in `data`, then ask the next step or run `after`."""
    walk, _, rest = data.partition(";")
    origin, here, left = walk.split(">")
    if action.kind == "stop":
        return after(relocate(state, origin, here, False) if here != origin else state, rest)
    there = action.arg
    if catches(state, there):  # it stops there and arrests every visible thief on it
        return after(arrest_at(relocate(state, origin, there, False), there), rest)
    return steer(state, seat, card, (origin, there, int(left) - 1), rest)


def _open(state: State, space: str) -> bool:
    return board().node(space).kind is NodeKind.SPACE and space not in state.fire


def _may_end(state: State, origin: str, space: str) -> bool:
    """No other figure there (the steered guard still stands on `origin`)."""
    return figures_at(state, space) - (space == origin) == 0


def _way_on(state: State, origin: str, space: str, left: int) -> bool:
    """Whether the guard, entering `space` with `left` steps after it, can end somewhere: a
    thief's space ends the walk there, other figures' spaces can only be passed."""
    if catches(state, space):
        return _may_end(state, origin, space)
    seen, todo = {space: 0}, deque([space])
    while todo:
        here = todo.popleft()
        if _may_end(state, origin, here):
            return True
        if seen[here] == left or (here != space and catches(state, here)):
            continue
        for there in board().neighbours(here):
            if there not in seen and _open(state, there):
                seen[there] = seen[here] + 1
                todo.append(there)
    return False
