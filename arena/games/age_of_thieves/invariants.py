"""The validation invariants of spec 22.8, checked on any state: the conformance test runs them
after every decision of many random games."""

from __future__ import annotations

from collections import Counter

from arena.games.age_of_thieves.board import NodeKind
from arena.games.age_of_thieves.queries import board, district
from arena.games.age_of_thieves.setup import ALARM_ROUNDS, CALM_ROUNDS
from arena.games.age_of_thieves.state import (
    HAND_LIMIT,
    TOTAL_GREEN,
    TOTAL_YELLOW,
    State,
)
from arena.games.api import GameError

DISCARDING = ("limit", "discard", "lose_card")  # steps in which a hand may be over the limit


class InvariantError(GameError):
    """A state breaks a rule of spec 22.8; the message names it."""


def violations(state: State) -> list[str]:
    """Every invariant of 22.8 that `state` breaks, in words (empty: none)."""
    found: list[str] = []
    crowded = [s for s, n in Counter((*state.guards, *state.captains)).items() if n > 1]
    found += [f"more than 1 guard or captain on {s}" for s in crowded]
    for space in (*state.guards, *state.captains):
        if space in state.fire or board().node(space).kind is not NodeKind.SPACE:
            found.append(f"a guard or captain stands on {space}: fire, a dungeon or an exit")
    for seat in range(state.players):
        found += _thief(state, seat)
    board_jewels = Counter(kind for _, kind in state.jewels)
    yellow = state.yellow_supply + board_jewels["yellow"] + sum(t.yellow for t in state.thieves)
    green = state.green_supply + board_jewels["green"] + sum(t.green for t in state.thieves)
    ej = board_jewels["ej"] + sum(t.ej for t in state.thieves)
    if (yellow, green, ej) != (TOTAL_YELLOW, TOTAL_GREEN, 1):
        found.append(f"jewels not conserved: {yellow} yellow, {green} green, {ej} Emperor's")
    if state.round > CALM_ROUNDS + ALARM_ROUNDS:
        found.append(f"round {state.round} is past the last possible one")
    return found


def _thief(state: State, seat: int) -> list[str]:
    thief = state.thief(seat)
    found = []
    if thief.on_board:
        node = board().node(thief.space)
        if node.kind is NodeKind.DUNGEON and not thief.jailed:
            found.append(f"seat {seat} is in a dungeon without an arrest")
        if thief.space in state.fire and thief.name != "zain":
            found.append(f"seat {seat} stands in fire on {thief.space}")
    elif not state.escape or district(thief.exit).value != state.escape:
        found.append(f"seat {seat} left by {thief.exit}, not an exit of the drawn district")
    if len(thief.hand) > HAND_LIMIT and not _discarding(state, seat):
        found.append(f"seat {seat} holds {len(thief.hand)} general cards, over the limit")
    if thief.robbed > 1:
        found.append(f"seat {seat} was robbed {thief.robbed} times this round")
    return found


def _discarding(state: State, seat: int) -> bool:
    prompt = state.prompt
    if prompt is not None and prompt.seat == seat and prompt.name in DISCARDING:
        return True
    return any(t.name in DISCARDING and t.seat == seat for t in state.tasks)


def check(state: State) -> None:
    """Raise `InvariantError` naming the first broken invariant."""
    found = violations(state)
    if found:
        raise InvariantError(found[0])
