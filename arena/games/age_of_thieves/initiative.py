"""The resolution order of a round (spec section 7) as a pure function of the revealed plans.

Cards resolve in descending AP. Thieves tied on a value alternate card by card, starting with the
first player and going clockwise. The guards act once, at their die value: in a calm round after
every card with AP >= g (thieves win ties), in an alarm round after every card with AP > g (guards
win ties). Which of his own equal cards a thief resolves in his turn is his choice (D-3), so the
order lists turns (seat and AP), not cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from arena.games.api import GameError

GUARD_DIE = range(1, 9)  # a d8 (or the higher of two)


class Status(StrEnum):
    CALM = "calm"
    ALARM = "alarm"


@dataclass(frozen=True, slots=True)
class Turn:
    """One step of the resolution phase: a seat resolves one of its cards with `ap` AP on it,
    or (seat None) the guards and captains act at initiative `ap`."""

    seat: int | None
    ap: int

    def __str__(self) -> str:
        return f"guards {self.ap}" if self.seat is None else f"seat {self.seat}: {self.ap}"


def resolution_order(
    plans: Sequence[Sequence[int]], first_player: int, guard: int, status: Status
) -> tuple[Turn, ...]:
    """`plans[seat]` holds the AP on each card that seat declared (empty: it declared none)."""
    return tuple(
        Turn(seat, ap) for seat, ap in resolution_steps(plans, first_player, guard, status)
    )


def resolution_steps(
    plans: Sequence[Sequence[int]], first_player: int, guard: int, status: Status
) -> list[tuple[int | None, int]]:
    """`resolution_order` as plain (seat, AP) pairs, for the engine that reads them at once."""
    _check(plans, first_player, guard)
    clockwise = [(first_player + i) % len(plans) for i in range(len(plans))]
    order: list[tuple[int | None, int]] = []
    guards_done = False
    for value in sorted({ap for plan in plans for ap in plan}, reverse=True):
        if not guards_done and _guards_before(value, guard, status):
            order.append((None, guard))
            guards_done = True
        left = {seat: list(plans[seat]).count(value) for seat in clockwise}
        while any(left.values()):
            for seat in clockwise:  # one card each in turn: tied thieves alternate (section 7)
                if left[seat]:
                    order.append((seat, value))
                    left[seat] -= 1
    if not guards_done:
        order.append((None, guard))
    return order


def _guards_before(value: int, guard: int, status: Status) -> bool:
    """Whether the guards act before the cards with `value` AP."""
    return value < guard if status is Status.CALM else value <= guard


def _check(plans: Sequence[Sequence[int]], first_player: int, guard: int) -> None:
    if not 0 <= first_player < len(plans):
        raise GameError(f"first player {first_player} is not one of {len(plans)} seats")
    if guard not in GUARD_DIE:
        raise GameError(f"guard initiative {guard} is not a d8 value (1 to 8)")
    for seat, plan in enumerate(plans):
        for ap in plan:
            if ap < 1:
                raise GameError(f"seat {seat} put {ap} AP on a card: each needs at least 1")
