"""The resolution order of spec section 7, its worked example first."""

from __future__ import annotations

import re

import pytest

from arena.games.age_of_thieves.initiative import Status, Turn, resolution_order
from arena.games.api import GameError

MORIUS, NOIRON = 0, 1


def order(plans: list[list[int]], first: int, guard: int, status: Status) -> list[str]:
    return [str(turn) for turn in resolution_order(plans, first, guard, status)]


def test_worked_example_calm_thieves_win_ties() -> None:
    """Section 7 [R-ex]: first player Morius 4 + 4, Noiron 4 + 2, g = 2, calm:
    Morius 4, Noiron 4, Morius 4, Noiron 2, guards."""
    turns = resolution_order([[4, 4], [4, 2]], MORIUS, 2, Status.CALM)
    assert turns == (
        Turn(MORIUS, 4),
        Turn(NOIRON, 4),
        Turn(MORIUS, 4),
        Turn(NOIRON, 2),
        Turn(None, 2),
    )


def test_worked_example_alarm_guards_win_ties() -> None:
    """The same under alarm: M4, N4, M4, guards, N2."""
    turns = resolution_order([[4, 4], [4, 2]], MORIUS, 2, Status.ALARM)
    assert turns == (
        Turn(MORIUS, 4),
        Turn(NOIRON, 4),
        Turn(MORIUS, 4),
        Turn(None, 2),
        Turn(NOIRON, 2),
    )


def test_tied_thieves_alternate_clockwise_from_the_first_player() -> None:
    # seat 2 is first player: 2, then 0, then 1 (clockwise with wrap), one card each in turn
    plans = [[3, 3, 3], [3], [3, 3]]
    assert order(plans, 2, 1, Status.CALM) == [
        "seat 2: 3",
        "seat 0: 3",
        "seat 1: 3",
        "seat 2: 3",
        "seat 0: 3",
        "seat 0: 3",
        "guards 1",
    ]


def test_guards_act_first_when_every_card_is_below_their_die() -> None:
    assert order([[4], [1, 2]], 0, 5, Status.CALM) == [
        "guards 5",
        "seat 0: 4",
        "seat 1: 2",
        "seat 1: 1",
    ]
    assert order([[5], [5]], 1, 5, Status.CALM) == ["seat 1: 5", "seat 0: 5", "guards 5"]
    assert order([[5], [5]], 1, 5, Status.ALARM) == ["guards 5", "seat 1: 5", "seat 0: 5"]


def test_nobody_declaring_leaves_the_guards_alone_and_no_passing() -> None:
    assert order([[], [], []], 0, 8, Status.ALARM) == ["guards 8"]
    assert order([[6, 1], []], 1, 3, Status.CALM) == ["seat 0: 6", "guards 3", "seat 0: 1"]


@pytest.mark.parametrize(
    ("plans", "first", "guard", "message"),
    [
        ([[1], [0]], 0, 3, "seat 1 put 0 AP on a card: each needs at least 1"),
        ([[1], [2]], 2, 3, "first player 2 is not one of 2 seats"),
        ([[1], [2]], 0, 9, "guard initiative 9 is not a d8 value (1 to 8)"),
    ],
)
def test_bad_plans_are_refused(
    plans: list[list[int]], first: int, guard: int, message: str
) -> None:
    with pytest.raises(GameError, match=re.escape(message)):
        resolution_order(plans, first, guard, Status.CALM)
