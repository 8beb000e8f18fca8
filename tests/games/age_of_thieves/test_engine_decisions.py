"""Decisions of spec 22.5 and rules of sections 17-19 that the other engine tests leave out, each
on a small scenario named by its decision or section (docs/rules/age-of-thieves.md)."""

from __future__ import annotations

from arena.games.age_of_thieves.engine import TASKS
from arena.games.age_of_thieves.guards import arrest
from arena.games.age_of_thieves.rounds import finish
from arena.games.age_of_thieves.state import Planned, State, Status, Task, replace
from tests.games.age_of_thieves.helpers import GAME, answer, options, scenario
from tests.games.age_of_thieves.test_engine_rules import at, table


def table3() -> State:
    """`table` for 3 players (Jasmine, Zain, Noiron)."""
    state = GAME.create({"players": 3, "thieves": "jasmine,zain,noiron"}, 1)
    two = table()
    return replace(
        state,
        prompt=None,
        tasks=(),
        first=0,
        **{k: getattr(two, k) for k in ("guards", "jewels", "tiles", "guard_supply")},
        **{k: getattr(two, k) for k in ("green_supply", "yellow_supply", "die")},
    )


def test_d2_a_zero_space_move_picks_up_on_its_own_space_but_sprint_does_not() -> None:
    """D-2: the start space counts as "during the movement": Sneak may take the jewel lying
    there without a step; Sprint still forbids pick-ups."""
    state = at(table(jewels=(("N71", "yellow"),), yellow_supply=9), 0, "N71")
    state = state.with_thief(0, plan=(Planned("B01", 3),))
    turn = scenario(state, Task("turn", 0, n=3))
    assert "take yellow" in options(answer(turn, "sneak B01"))
    sprint = answer(turn, "sprint B01")
    assert not [o for o in options(sprint) if o.startswith("take")]
    state = answer(turn, "sneak B01", "take yellow", "stop")
    assert state.thief(0).yellow == 1 and state.thief(0).space == "N71"


def test_d11_escape_costs_one_step_and_records_when_he_left() -> None:
    """D-11: stepping onto an open exit costs 1 point and removes the thief; (round, resolution
    index) is kept for the "left earlier" tie-break."""
    state = at(table(escape="N", round=4, actions_done=7), 0, "N80")
    state = answer(scenario(state, Task("move", 0, "", 1)), "step XN1")
    thief = state.thief(0)
    assert (thief.space, thief.exit, thief.escaped) == ("", "XN1", (4, 7))


def test_d13_red_ap_go_to_whoever_holds_the_jewel_at_clean_up() -> None:
    """D-13, section 18: at Clean-up the red AP (players - 1) go to the current holder; a thief
    who lost the jewel keeps none."""
    state = table().with_thief(0, red=1, best=True).with_thief(1, ej=True)
    state = scenario(state, Task("cleanup"))
    assert (state.thief(0).red, state.thief(1).red) == (0, 1)
    assert state.thief(0).best  # the best-thief token is never lost


def test_section_17_dungeon_gives_two_blue_ap_jasmine_four() -> None:
    """Section 17 and 5(c): a thief still in the dungeon at Clean-up gets 2 blue AP next round;
    Jasmine's Old Admirers (22.4) make it 4; a free thief gets 10."""
    state = at(at(table("jasmine,zain"), 0, "VN", jailed=True), 1, "VS", jailed=True)
    state = scenario(state, Task("cleanup"))
    assert (state.thief(0).blue, state.thief(1).blue) == (4, 2)
    free = scenario(at(table(), 0, "N71", blue=2), Task("cleanup"))
    assert free.thief(0).blue == 10


def test_d14_bola_sets_aside_after_temporary_ap_and_leaves_two() -> None:
    """D-14: temporary AP come first, then the Bola sets aside 4, never below 2 in all; AP
    tiles are never removed."""
    state = table().with_thief(0, blue=2, purple_next=2, bola_next=True, informers=1)
    state = scenario(state, Task("plan_start", 0))
    thief = state.thief(0)
    assert (thief.pool, thief.informers, thief.bola_next) == (1, 1, False)  # 4 -> 1, +1 tile


def test_d17_palace_arrest_after_the_draw_goes_to_one_of_the_other_three() -> None:
    """D-17: caught in the palace after the jewel was first taken but before the alarm, the
    thief goes to the dungeon of a district card drawn from the 3 left; the card goes back."""
    for seed_round in range(1, 9):
        state = at(table(escape="N", districts=("E", "S", "W"), round=seed_round), 0, "P1N")
        state = replace(state, alarm_pending=True)
        caught = arrest(state, 0)
        assert caught.thief(0).space in ("VE", "VS", "VW")
        assert sorted(caught.districts) == ["E", "S", "W"]
    alarm = arrest(at(table(escape="N", status=Status.ALARM), 0, "P1N"), 0)
    assert alarm.thief(0).space == "VN"  # after the alarm: the escape district's dungeon


def test_d18_a_thief_passing_robs_each_marked_thief_once() -> None:
    """D-18, section 13: on a space with two marked thieves the mover may rob each once; a
    robbed thief is not offered again that round."""
    state = table3()
    state = at(at(at(state, 0, "N72"), 1, "N71", yellow=2, marker=True), 2, "N71", green=1)
    state = state.with_thief(2, marker=True)
    state = answer(scenario(state, Task("move", 0, "", 2)), "step N71")
    assert {"steal 1:yellow", "steal 2:green"} <= set(options(state))
    state = answer(state, "steal 1:yellow")
    assert not [o for o in options(state) if o.startswith("steal 1:")]
    state = answer(state, "steal 2:green", "stop")
    assert (state.thief(0).yellow, state.thief(0).green) == (1, 1)
    assert (state.thief(1).robbed, state.thief(2).robbed) == (1, 1)


def test_section_19_more_vp_then_more_green_then_who_left_earlier() -> None:
    """Section 19: among thieves who left, most VP wins; tie: more green jewels; tie: who left
    earlier. A thief still in the city is ignored whatever he holds."""
    base = table3()
    base = at(base, 2, "N71", green=4)  # still on the board: ignored
    left = {"space": "", "exit": "XN1"}
    greens = base.with_thief(0, yellow=2, escaped=(3, 1), **left)
    greens = greens.with_thief(1, green=1, escaped=(5, 1), **left)
    assert finish(greens, "end").winner == 1  # 2 VP each, he has the green jewel
    earlier = base.with_thief(0, yellow=2, escaped=(3, 9), **left)
    earlier = earlier.with_thief(1, yellow=2, escaped=(3, 4), **left)
    assert finish(earlier, "end").winner == 1
    nobody = finish(base, "end")
    assert nobody.winner == -1 and "nobody escaped" in nobody.reason


def test_section_12_a_thief_out_of_the_dungeon_is_hidden_for_the_round() -> None:
    """Section 12, D-5: stepping out of the dungeon makes him hidden until the round ends, so a
    guard's space does not arrest him on entry; Clean-up ends it."""
    state = at(table(guards=("N60",)), 0, "VN", jailed=True)
    state = answer(scenario(state, Task("move", 0, "", 2)), "step N60", "stop")
    thief = state.thief(0)
    assert (thief.space, thief.jailed, thief.free_hidden) == ("N60", False, True)
    assert not TASKS["cleanup"](replace(state, over=False), Task("cleanup")).thief(0).free_hidden
