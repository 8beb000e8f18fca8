"""Guard routes on the reference board (spec D-6, D-7): shortest, lexicographically smallest,
around fire, nearest the target when fire cuts it off, never ending on another guard."""

from __future__ import annotations

import re

import pytest

from arena.games.age_of_thieves import hadria
from arena.games.age_of_thieves.paths import GuardMove, guard_move, guard_route
from arena.games.api import GameError

BOARD = hadria()
# N80, the north-west corner, cut off: its paths lead to N81, N70, W84 and the exit XN1
CORNER_FIRE = {"N81", "N70", "W84"}


def test_the_lexicographically_smallest_of_equal_shortest_paths() -> None:
    # T to N32 has two shortest paths, through P2Na or P2Nb: "P2Na" sorts first (D-7)
    assert guard_route(BOARD, "T", "N32", 8) == ("P1N", "P2Na", "PGN", "N32")


def test_the_route_ends_after_the_figures_movement() -> None:
    assert guard_route(BOARD, "T", "N32", 2) == ("P1N", "P2Na")
    assert guard_route(BOARD, "T", "N32", 0) == ()


def test_fire_is_walked_around() -> None:
    assert guard_route(BOARD, "T", "N32", 8, fire={"P2Na"}) == ("P1N", "P2Nb", "PGN", "N32")
    # with the corner's northern paths on fire it is still reached from the west district
    assert guard_route(BOARD, "N61", "N80", 3, fire={"N81", "N70"}) == ("N60", "W64", "W63")


def test_a_target_cut_off_by_fire_draws_the_guard_to_the_nearest_space_through_fire() -> None:
    """N71 and N82 are both 2 from N80 counting through fire; N71 has the lower id."""
    assert guard_route(BOARD, "N72", "N80", 3, fire=CORNER_FIRE) == ("N71",)
    assert guard_route(BOARD, "N62", "N80", 3, fire=CORNER_FIRE) == ("N61", "N71")
    assert guard_route(BOARD, "N71", "N80", 3, fire=CORNER_FIRE) == ()  # already nearest


def test_the_figure_stops_on_the_first_arrestable_thief() -> None:
    move = guard_move(BOARD, "T", "N32", 4, arrestable={"P2Na", "PGN"})
    assert move == GuardMove(("P1N", "P2Na"), "P2Na", arrests=True)


def test_it_passes_other_guards_but_falls_back_from_ending_on_one() -> None:
    assert guard_move(BOARD, "T", "N32", 4, guards={"P2Na"}).end == "N32"  # passes through
    assert guard_move(BOARD, "T", "N32", 3, guards={"PGN"}).end == "P2Na"
    stay = guard_move(BOARD, "T", "N32", 1, guards={"P1N"})
    assert stay == GuardMove((), "T", arrests=False)
    # a thief on another guard's space: it cannot end there, so no arrest
    assert guard_move(BOARD, "T", "N32", 4, guards={"P2Na"}, arrestable={"P2Na"}).arrests is False


def test_no_guard_stands_on_fire_a_dungeon_or_an_exit() -> None:
    with pytest.raises(GameError, match=re.escape("no guard can stand on 'VN'")):
        guard_route(BOARD, "VN", "N60", 3)
    with pytest.raises(GameError, match=re.escape("no guard can stand on 'N60'")):
        guard_route(BOARD, "N60", "N61", 3, fire={"N60"})
