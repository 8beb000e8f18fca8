"""Greedy's way out of the city (rules docs/rules/age-of-thieves.md, section 19: once the alarm
is up only a thief who leaves can win): it heads for an exit, never steps onto a figure that
would arrest it, and opens a way when figures stand beside every exit."""

from __future__ import annotations

from itertools import product

from arena.bots import aot_greedy, aot_ways
from arena.games.age_of_thieves.queries import board, hidden
from arena.games.age_of_thieves.state import MOVE, Action, State, Status, replace
from tests.bots.test_aot import planned, planning_state

# Hadria's west district: exits XW1 (beside W80) and XW2 (beside W84); W70 lies 2 from XW1.
HERE = "W70"


def alarm_in_the_west(guards: tuple[str, ...], hand: tuple[str, ...] = ()) -> tuple[State, int]:
    """A planning state in an alarm round with the west exits open, the seat now planning on
    `HERE` with `hand` (Noiron, who has no way past guards), the guards on `guards`, no
    captain."""
    state = planning_state()
    seat = state.prompt.seat if state.prompt else -1
    state = replace(state, status=Status.ALARM, escape="W", guards=guards, captains=(), jewels=())
    return state.with_thief(seat, name="noiron", space=HERE, hand=hand, ej=False), seat


def test_after_the_alarm_the_goal_is_the_nearest_exit() -> None:
    state, seat = alarm_in_the_west(guards=("E34",))
    assert aot_ways.goal(state, seat) == "XW1"


def test_figures_watching_the_nearest_exit_send_him_to_another_unless_he_is_hidden() -> None:
    watched, seat = alarm_in_the_west(guards=("W80", "W81"))  # within 3 of XW1: 2 + 2 x 3 > 6
    assert aot_ways.goal(watched, seat) == "XW2"
    assert aot_ways.goal(watched.with_thief(seat, cloak=True), seat) == "XW1"
    assert aot_ways.goal(replace(watched, guards=("W80",)), seat) == "XW1"  # 2 + 3 < 6
    assert aot_ways.goal(watched, seat) == "XW2"


def test_a_dropped_emperors_jewel_is_fetched_only_with_a_round_to_spare() -> None:
    state, seat = alarm_in_the_west(guards=("E34",))
    dropped = replace(state, jewels=(("W61", "ej"),), alarm=("A01", "A02", "A03"))
    assert aot_ways.goal(dropped, seat) == "W61"
    last_round = replace(dropped, alarm=())
    assert aot_ways.goal(last_round, seat) == "XW1"


def test_ways_never_lead_onto_a_figure_that_would_arrest_the_thief() -> None:
    state, seat = alarm_in_the_west(guards=("W80",))
    assert "W80" not in aot_ways.reachable(state, seat, HERE, 3)
    assert "W71" in aot_ways.reachable(state, seat, HERE, 3)
    cloaked = state.with_thief(seat, cloak=True)
    assert "XW1" in aot_ways.reachable(cloaked, seat, HERE, 3)
    roped = state.with_thief(seat, protected=True)  # Rope & Hook: no arrest
    assert "XW1" in aot_ways.reachable(roped, seat, HERE, 3)
    joanne = state.with_thief(seat, name="joanne")  # walks past guards, not captains
    assert "XW1" in aot_ways.reachable(joanne, seat, HERE, 3)
    captain = replace(joanne, guards=(), captains=("W80",))
    assert "W80" not in aot_ways.reachable(captain, seat, HERE, 3)


def test_walled_in_greedy_plays_a_shield_first_and_moves_past_the_guards() -> None:
    state, seat = alarm_in_the_west(guards=("W80", "W84"), hand=("G11",))
    assert aot_ways.walled_in(state, seat)
    assert planned(state) == [("G11", 9), (MOVE, 1)]
    free, seat = alarm_in_the_west(guards=("E34",), hand=("G11",))
    assert not aot_ways.walled_in(free, seat)
    assert [card for card, _ in planned(free)] == [MOVE, "B02"]  # no need: Cleverness instead


def test_walled_in_without_a_shield_greedy_smokes_the_guard_by_the_exit() -> None:
    state, seat = alarm_in_the_west(guards=("W80", "W84"), hand=("G07",))
    assert planned(state)[0] == ("G07", 9)
    targets = [Action("target", space) for space in ("W71", "W80", "W70")]
    assert aot_ways.aim(state, seat, targets) == Action("target", "W80")
    sends = [Action("to", space) for space in ("W81", "E34")]
    assert aot_ways.aim(state, seat, sends) == Action("to", "E34")
    victims = [Action("target", "2"), Action("target", "0")]  # the smoke's theft: no space
    assert aot_ways.aim(state, seat, victims) == victims[0]
    gone = state.with_thief(seat, space="", escaped=(5, 1))
    assert aot_ways.aim(replace(gone, escape=""), seat, targets) == targets[0]


def test_leaving_the_dungeon_the_thief_walks_past_the_guards_around_it() -> None:
    """D-5: out of the dungeon he is hidden for the round, so guards at its door stop nobody."""
    doors = board().neighbours("VW")
    state, seat = alarm_in_the_west(guards=doors)
    jailed = state.with_thief(seat, space="VW", jailed=True)
    assert set(doors) <= set(aot_ways.reachable(jailed, seat, "VW", 1))
    assert not set(doors) & set(aot_ways.reachable(state, seat, HERE, 40))


def test_walled_in_near_an_exit_with_nothing_to_open_it_greedy_draws_for_a_card() -> None:
    state, _ = alarm_in_the_west(guards=("W80", "W84"), hand=("G13", "G03"))
    assert planned(state) == [(MOVE, 9), ("B02", 1)]  # Cleverness, not the Elixir
    free, _ = alarm_in_the_west(guards=("E34",), hand=("G13", "G03"))
    assert planned(free) == [(MOVE, 9), ("G13", 1)]
    assert aot_greedy._discard([Action("discard", "G07"), Action("discard", "G09")]).arg == "G09"


def test_hiding_answers_as_the_rules_do_for_the_thief_moved_there() -> None:
    """Section 12 as `queries.hidden` reads it, on every space: hideouts, Dark Alleys and
    smoke, Cloak, an escape from the dungeon, Nikolai's palace, C02, and A07 (no hideouts)."""
    state, seat = alarm_in_the_west(guards=("E34",))
    state = replace(state, smoke=("W71", "P11"), open_tiles=(("W72", "dark_alley"),))
    spaces = [node.id for node in board().nodes]
    found = 0
    for event, name, flag in product(("", "C02", "A07"), ("noiron", "nikolai"), FLAGS):
        changed = replace(state, event=event).with_thief(seat, name=name, **flag)
        everywhere, hides = aot_ways.hiding(changed, seat)
        for space in spaces:
            moved = changed.with_thief(seat, space=space)
            assert (everywhere or space in hides) == hidden(moved, seat), space
            found += hidden(moved, seat)
    assert 0 < found < 18 * len(spaces)


FLAGS: tuple[dict[str, bool], ...] = ({}, {"cloak": True}, {"free_hidden": True})


def test_a_states_ways_are_kept_for_that_state_alone() -> None:
    state, seat = alarm_in_the_west(guards=("W80",))
    blocked = aot_ways.reachable(state, seat, HERE, 3)
    free = aot_ways.reachable(replace(state, guards=("E34",)), seat, HERE, 3)
    assert "XW1" in free and "XW1" not in blocked
    assert aot_ways.reachable(state, seat, HERE, 3) == blocked
