"""The effects of the general action cards (spec 22.2), each a short sequence of decisions: a
target, then a space or a jewel; the specials are in specials.py. A card whose effect finds no
target does nothing but still counts as resolved (D-4).
"""

from __future__ import annotations

from arena.games.age_of_thieves import steering
from arena.games.age_of_thieves.board import NodeKind
from arena.games.age_of_thieves.engine import answer
from arena.games.age_of_thieves.guards import relocate
from arena.games.age_of_thieves.movement import movement
from arena.games.age_of_thieves.queries import board, free, reach, targets
from arena.games.age_of_thieves.specials import SPECIAL_EFFECTS, SPECIAL_STEPS
from arena.games.age_of_thieves.state import Action, State, Task, add_sorted, replace
from arena.games.age_of_thieves.steering import steer
from arena.games.age_of_thieves.targeting import (
    Effect,
    Step,
    ask_fx,
    crowd_moves,
    figures_within,
    fire_options,
    guard_to,
    is_captain,
    put_fire,
    rob,
    spaces_within,
    targeted,
    theft,
    thieves_within,
)


def start(state: State, seat: int, card: str) -> State:
    """Begin the effect of `card`, resolved by `seat`."""
    return EFFECTS[card](state, seat)


@answer("fx")
def _follow(state: State, job: Task, action: Action) -> State:
    card, _, data = job.arg.partition("|")
    return STEPS[card](state, job.seat, job.n, data, action)


def _beacon(state: State, seat: int, step: int, data: str, action: Action) -> State:
    """G01: a guard within 5 moves freely up to 4: the player steers it space by space."""
    if step == 0:
        return steer(state, seat, "G01", (action.arg, action.arg, 4))
    return steering.step(state, seat, "G01", data, action, lambda after, _: after)


def _forged(state: State, seat: int, step: int, data: str, action: Action) -> State:
    """G02: a guard within 5 is repositioned to a free guardhouse."""
    if step == 0:
        spaces = [n.id for n in board().nodes if n.guardhouse and free(state, n.id)]
        return ask_fx(state, seat, "G02", [Action("to", s) for s in spaces], 1, action.arg)
    return relocate(state, data, action.arg, captain=False)


def _trap(state: State, seat: int, _: int, __: str, action: Action) -> State:
    """G05: a thief or guard within 4 cannot move or be moved until the end of the round."""
    if action.arg.isdigit():
        return state.with_thief(int(action.arg), trapped=True)
    return replace(state, trapped=add_sorted(state.trapped, action.arg))


def _gas(state: State, seat: int, step: int, data: str, action: Action) -> State:
    """G04: each guard within 5 moves 0-2 spaces in any direction, the player steering each in
    turn (by space id): `data` is the walk of the guard moving, then the guards still to move."""
    if step == 1:
        return steering.step(
            state, seat, "G04", data, action, lambda s, rest: _gas_next(s, seat, rest)
        )
    return _gas_next(state, seat, data)


def _gas_next(state: State, seat: int, rest: str) -> State:
    todo = [s for s in rest.split(",") if s]
    while todo and (todo[0] not in state.guards or todo[0] in state.trapped):
        todo = todo[1:]
    if not todo:
        return state
    return steer(state, seat, "G04", (todo[0], todo[0], 2), ",".join(todo[1:]))


def _smoke(state: State, seat: int, step: int, data: str, action: Action) -> State:
    """G07: smoke on a space within 3 and its neighbours; a thief there may be the theft
    target."""
    if step == 0:
        around = [
            n for n in board().neighbours(action.arg) if board().node(n).kind is NodeKind.SPACE
        ]
        state = replace(state, smoke=tuple(sorted({*state.smoke, action.arg, *around})))
        return _victim(state, seat, "G07", action.arg)
    return theft(state, seat, int(action.arg)) if action.kind == "target" else state


def _victim(state: State, seat: int, card: str, space: str) -> State:
    victims = [s for s in targets(state, seat, 1 << 30) if state.thief(s).space == space]
    options = [Action("stop"), *(Action("target", str(s)) for s in victims)]
    return ask_fx(state, seat, card, options, 1, space)


def _noise(state: State, seat: int, step: int, data: str, action: Action) -> State:
    """G08: a space within 4 (a thief on it may be the theft target); every guard and captain
    within 4 of it moves up to 2 towards it."""
    if step == 0:
        return _victim(state, seat, "G08", action.arg)
    if action.kind == "target":
        state = theft(state, seat, int(action.arg))
    return crowd_moves(state, data, 4, 2, captains=True)


def _rope(state: State, seat: int, _: int, __: str, action: Action) -> State:
    """G11: repositioned within 2, picks up there, cannot be arrested this round."""
    state = state.with_thief(seat, space=action.arg, protected=True)
    return movement(state, seat, 0, "z")


def _rats(state: State, seat: int, _: int, __: str, action: Action) -> State:
    """G14: one city tile from a thief's sheet; a Trinket is his theft of the round."""
    victim_text, kind = action.arg.split(":")
    victim = int(victim_text)
    field = {
        "informer": "informers",
        "agent": "agents",
        "pocket": "pockets",
        "trinket": "trinkets",
    }[kind]
    other, thief = state.thief(victim), state.thief(seat)
    state = state.with_thief(victim, **{field: getattr(other, field) - 1})
    if kind == "trinket":
        state = state.with_thief(victim, robbed=other.robbed + 1, marker=False)
    return state.with_thief(seat, **{field: getattr(thief, field) + 1})


def _rat_options(state: State, seat: int) -> list[Action]:
    found = []
    for victim in targets(state, seat, reach(state, "G14")):
        other = state.thief(victim)
        have = {"informer": other.informers, "agent": other.agents, "pocket": other.pockets}
        have["trinket"] = other.trinkets if not other.robbed else 0
        found += [Action("tile", f"{victim}:{kind}") for kind, n in have.items() if n]
    return found


def _distraction(state: State, seat: int, step: int, data: str, action: Action) -> State:
    """G19: a guard or captain within 5 is repositioned to a free space within 2 of it."""
    if step == 0:
        spaces = [
            n.id
            for n in board().nodes
            if 0 < board().distance(action.arg, n.id) <= 2 and free(state, n.id)
        ]
        return ask_fx(state, seat, "G19", [Action("to", s) for s in spaces], 1, action.arg)
    return relocate(state, data, action.arg, is_captain(state, data))


def _simple(name: str) -> Effect:
    """Effects with one target, or none."""

    def run(state: State, seat: int) -> State:
        thief = state.thief(seat)
        if name == "G03":
            options = [Action("target", str(s)) for s in targets(state, seat, reach(state, name))]
            return ask_fx(state, seat, name, options)
        if name == "G10":
            return state.with_thief(seat, cloak=True)
        if name in ("G18", "S05"):
            return state.with_thief(seat, purple_next=thief.purple_next + 2)
        if name == "G13":
            return movement(state, seat, 5)
        if name == "G17":
            return movement(state, seat, 3, "m")
        raise KeyError(name)

    return run


def _rod_options(state: State, seat: int) -> list[Action]:
    return [
        Action("steal", f"{s}:{kind}")
        for s in targets(state, seat, reach(state, "G09"))
        if not state.thief(s).robbed
        for kind in state.thief(s).jewels()
    ]


def _bola(state: State, seat: int, _: int, __: str, action: Action) -> State:
    return state.with_thief(int(action.arg), bola_next=True)


def _bribe(state: State, seat: int, _: int, __: str, action: Action) -> State:
    return replace(state, bribed=add_sorted(state.bribed, action.arg))


def _space_then(card: str) -> Effect:
    def run(state: State, seat: int) -> State:
        spaces = spaces_within(state, seat, reach(state, card))
        return ask_fx(state, seat, card, [Action("target", s) for s in spaces])

    return run


def _firecracker(state: State, seat: int, _: int, __: str, action: Action) -> State:
    return crowd_moves(state, action.arg, 4, 3, captains=False, early=True)


def _rope_start(state: State, seat: int) -> State:
    here = state.thief(seat).space
    spaces = [s for s in spaces_within(state, seat, 2) if s not in state.fire and s != here]
    return ask_fx(state, seat, "G11", [Action("to", s) for s in spaces])


EFFECTS: dict[str, Effect] = {
    "G01": lambda s, seat: guard_to(s, seat, "G01", reach(s, "G01"), captains=False),
    "G02": lambda s, seat: guard_to(s, seat, "G02", reach(s, "G02"), captains=False),
    "G03": _simple("G03"),
    "G04": lambda s, seat: _gas(
        s, seat, 0, ",".join(figures_within(s, seat, reach(s, "G04"), False)), Action("stop")
    ),
    "G05": targeted(
        "G05",
        lambda s, seat: (
            thieves_within("G05")(s, seat)
            + [Action("target", g) for g in figures_within(s, seat, reach(s, "G05"), False)]
        ),
    ),
    "G06": targeted("G06", lambda s, seat: fire_options(s, seat, reach(s, "G06"))),
    "G07": _space_then("G07"),
    "G08": _space_then("G08"),
    "G09": targeted("G09", _rod_options),
    "G10": _simple("G10"),
    "G11": _rope_start,
    "G12": _space_then("G12"),
    "G13": _simple("G13"),
    "G14": targeted("G14", _rat_options),
    "G15": lambda s, seat: guard_to(s, seat, "G15", reach(s, "G15"), captains=True),
    "G16": targeted("G16", thieves_within("G16")),
    "G17": _simple("G17"),
    "G18": _simple("G18"),
    "G19": lambda s, seat: guard_to(s, seat, "G19", reach(s, "G19"), captains=True),
    "S05": _simple("S05"),
    **SPECIAL_EFFECTS,
}

STEPS: dict[str, Step] = {
    "rob": rob,
    "G01": _beacon,
    "G02": _forged,
    "G03": _bola,
    "G04": _gas,
    "G05": _trap,
    "G06": lambda s, seat, n, d, a: put_fire(s, a.arg),
    "G07": _smoke,
    "G08": _noise,
    "G09": rob,
    "G11": _rope,
    "G12": _firecracker,
    "G14": _rats,
    "G15": _bribe,
    "G16": lambda s, seat, n, d, a: theft(s, seat, int(a.arg)),
    "G19": _distraction,
    **SPECIAL_STEPS,
}
