"""The thieves' special actions (spec 22.4): each costs the general card lying on it."""

from __future__ import annotations

from arena.games.age_of_thieves.engine import ask
from arena.games.age_of_thieves.guards import move_towards
from arena.games.age_of_thieves.paths import guard_route
from arena.games.age_of_thieves.queries import board, reach, targets, within
from arena.games.age_of_thieves.state import (
    Action,
    State,
    Task,
    add_sorted,
    push,
    remove_one,
    replace,
)
from arena.games.age_of_thieves.targeting import (
    Effect,
    Step,
    ask_fx,
    fire_options,
    guard_to,
    put_fire,
    targeted,
    theft,
    thieves_within,
)


def _spies(state: State, seat: int, step: int, data: str, action: Action) -> State:
    """S01: look at 2 face-down tiles anywhere; swap them or not."""
    if step == 0:
        options = [Action("target", s) for s, _ in state.tiles if s != action.arg]
        return ask_fx(state, seat, "S01", options, 1, action.arg)
    if step == 1:
        pair = (data, action.arg)
        tiles = dict(state.tiles)
        seen = dict(state.thief(seat).peeks) | {s: tiles[s] for s in pair}
        state = state.with_thief(seat, peeks=tuple(sorted(seen.items())))
        return ask_fx(state, seat, "S01", [Action("swap"), Action("keep")], 2, ",".join(pair))
    if action.kind == "keep":
        return state
    a, b = data.split(",")
    tiles = dict(state.tiles)
    tiles[a], tiles[b] = tiles[b], tiles[a]
    state = replace(state, tiles=tuple(sorted(tiles.items())))
    seen = dict(state.thief(seat).peeks) | {a: tiles[a], b: tiles[b]}
    return state.with_thief(seat, peeks=tuple(sorted(seen.items())))


def _shadows(state: State, seat: int, step: int, data: str, action: Action) -> State:
    """S03: another thief (not in the dungeon) gives him a general card of the giver's choice."""
    if step == 0:
        victim = int(action.arg)
        options = [Action("give", c) for c in state.thief(victim).hand]
        return ask(state, "fx", victim, options, Task("fx", seat, "S03|" + action.arg, 1))
    victim = int(data)
    state = state.with_thief(victim, hand=remove_one(state.thief(victim).hand, action.arg))
    state = state.with_thief(seat, hand=add_sorted(state.thief(seat).hand, action.arg))
    return push(state, Task("limit", seat))


def _arson(state: State, seat: int, step: int, data: str, action: Action) -> State:
    """S04: up to 2 fire tiles on free spaces within 4 (its range: Guild Support adds 1 to
    both)."""
    if action.kind == "stop":
        return state
    state = put_fire(state, action.arg)
    if step == 0:
        more = fire_options(state, seat, reach(state, "S04"))  # within 4, 5 under C01
        return ask_fx(state, seat, "S04", [Action("stop"), *more], 1)
    return state


def _confiscate(state: State, seat: int, _: int, __: str, action: Action) -> State:
    """S06: a thief within 3 as theft target, or a yellow or green jewel lying within 3."""
    if action.kind == "target":
        return theft(state, seat, int(action.arg))
    space, kind = action.arg.split(":")
    jewels = list(state.jewels)
    jewels.remove((space, kind))
    state = replace(state, jewels=tuple(jewels))
    thief = state.thief(seat)
    if kind == "green":
        return state.with_thief(seat, green=thief.green + 1)
    return state.with_thief(seat, yellow=thief.yellow + 1)


def _confiscate_options(state: State, seat: int) -> list[Action]:
    found = thieves_within("S06")(state, seat)
    distance = reach(state, "S06")
    return found + [
        Action("take", f"{space}:{kind}")
        for space, kind in state.jewels
        if kind in ("yellow", "green") and within(state, seat, space, distance)
    ]


def _seduce(state: State, seat: int, step: int, data: str, action: Action) -> State:
    """S02: the guard moves *up to* 2 towards Jasmine along its D-7 route: she says where on
    that route it stops (staying put included)."""
    if step == 0:
        guard = action.arg
        route = guard_route(board(), guard, state.thief(seat).space, 2, state.fire)
        options = [Action("to", space) for space in sorted({guard, *route})]
        return ask_fx(state, seat, "S02", options, 1, guard)
    jasmine = state.thief(seat).space
    route = guard_route(board(), data, jasmine, 2, state.fire)
    steps = route.index(action.arg) + 1 if action.arg in route else 0
    return move_towards(state, data, jasmine, steps, captain=False)


SPECIAL_EFFECTS: dict[str, Effect] = {
    "S01": targeted("S01", lambda s, seat: [Action("target", sp) for sp, _ in s.tiles]),
    "S02": lambda s, seat: guard_to(s, seat, "S02", reach(s, "S02"), captains=False),
    "S03": targeted(
        "S03",
        lambda s, seat: [
            Action("target", str(v)) for v in targets(s, seat, 1 << 30) if s.thief(v).hand
        ],
    ),
    "S04": targeted(
        "S04", lambda s, seat: [Action("stop"), *fire_options(s, seat, reach(s, "S04"))]
    ),
    "S06": targeted("S06", _confiscate_options),
}
SPECIAL_STEPS: dict[str, Step] = {
    "S01": _spies,
    "S02": _seduce,
    "S03": _shadows,
    "S04": _arson,
    "S06": _confiscate,
}
