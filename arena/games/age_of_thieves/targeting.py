"""Shared steps of card effects (spec 22.2, 22.4): choosing figures, spaces and thieves in
range, the theft of section 13, and moving guards as a card says.

A multi-step effect asks with the prompt `fx`: the task's `arg` is `card|data` and `n` its step.
"""

from __future__ import annotations

from collections.abc import Callable

from arena.games.age_of_thieves.board import NodeKind
from arena.games.age_of_thieves.engine import ask
from arena.games.age_of_thieves.guards import arrest_at, move_towards
from arena.games.age_of_thieves.movement import steal
from arena.games.age_of_thieves.queries import (
    arrestable,
    board,
    free,
    reach,
    targets,
    thieves_at,
    within,
)
from arena.games.age_of_thieves.state import Action, State, Task, add_sorted, replace

Effect = Callable[[State, int], State]
Step = Callable[[State, int, int, str, Action], State]
MOVED = ("G01", "S02")  # cards that move a guard: a trapped one cannot be (G05)


def ask_fx(
    state: State, seat: int, card: str, options: list[Action], step: int = 0, data: str = ""
) -> State:
    return ask(state, "fx", seat, options, Task("fx", seat, f"{card}|{data}", step))


def figures_within(state: State, seat: int, distance: int, captains: bool) -> list[str]:
    found = [s for s in state.guards if within(state, seat, s, distance)]
    if captains:
        found += [s for s in state.captains if within(state, seat, s, distance)]
    return found


def spaces_within(state: State, seat: int, distance: int) -> list[str]:
    """The spaces within `distance` of `seat`'s thief (22.1), by id; none once he has left."""
    here = state.thief(seat).space
    if not here or distance < 0:
        return []
    city = board()
    return [s for s in city.around(here, distance) if city.node(s).kind is NodeKind.SPACE]


def is_captain(state: State, space: str) -> bool:
    return space in state.captains


def theft(state: State, seat: int, victim: int) -> State:
    """Section 13: on the same space the theft happens now (he picks the jewel); otherwise the
    victim gets a theft marker. A victim already robbed this round is ignored."""
    other = state.thief(victim)
    if other.robbed:
        return state
    if other.space != state.thief(seat).space:
        return state.with_thief(victim, marker=True)
    options = [Action("steal", f"{victim}:{kind}") for kind in other.jewels()]
    return ask_fx(state, seat, "rob", options)


def rob(state: State, seat: int, _: int, __: str, action: Action) -> State:
    victim, kind = action.arg.split(":")
    return steal(state, seat, int(victim), kind)


def guard_to(state: State, seat: int, card: str, distance: int, captains: bool) -> State:
    spaces = figures_within(state, seat, distance, captains)
    if card in MOVED:  # a trapped guard cannot be moved (G05), only repositioned
        spaces = [s for s in spaces if s not in state.trapped]
    return ask_fx(state, seat, card, [Action("target", s) for s in spaces])


def crowd_moves(
    state: State, centre: str, sight: int, budget: int, captains: bool, early: bool = False
) -> State:
    """Every guard (and captain) within `sight` of `centre` moves up to `budget` towards it:
    guards first, by space id (Noise Grenade, Firecracker). `early` (Firecracker): a guard with a
    visible thief on its own space, who began the round there, arrests him and stays (G12,
    section 16: a guard moved before its initiative arrests him normally)."""
    for captain in (False, True) if captains else (False,):
        for space in state.captains if captain else state.guards:
            if space in state.bribed:  # G15: a bribed figure does not move this round
                continue
            if board().distance(space, centre) <= sight and space in (
                state.captains if captain else state.guards
            ):
                if early and space not in state.trapped and catches(state, space):
                    state = arrest_at(state, space)
                    continue
                state = move_towards(state, space, centre, budget, captain)
    return state


def catches(state: State, space: str) -> bool:
    """A guard on `space` would arrest someone there: a visible, unprotected thief."""
    return any(arrestable(state, seat) for seat in thieves_at(state, space))


def put_fire(state: State, space: str) -> State:
    return replace(state, fire=add_sorted(state.fire, space))


def fire_options(state: State, seat: int, distance: int) -> list[Action]:
    return [Action("fire", s) for s in spaces_within(state, seat, distance) if free(state, s)]


def thieves_within(card: str) -> Callable[[State, int], list[Action]]:
    def make(state: State, seat: int) -> list[Action]:
        found = targets(state, seat, reach(state, card))
        return [Action("target", str(s)) for s in found]

    return make


def targeted(name: str, make: Callable[[State, int], list[Action]]) -> Effect:
    def run(state: State, seat: int) -> State:
        return ask_fx(state, seat, name, make(state, seat))

    return run
