"""Action cards, thieves' specials and passives in the engine (spec 9, 22.2, 22.4), each on a
small scenario; the card ids are those of the data files (G01 Beacon ... S06 Confiscation)."""

from __future__ import annotations

from arena.games.age_of_thieves.effects import start
from arena.games.age_of_thieves.engine import run
from arena.games.age_of_thieves.queries import hidden
from arena.games.age_of_thieves.state import Planned, State, Task, replace
from tests.games.age_of_thieves.helpers import GAME, answer, options, scenario
from tests.games.age_of_thieves.test_engine_rules import at, table


def effect(state: State, seat: int, card: str) -> State:
    """`seat` resolves `card` now; the state halts once the effect is over."""
    return run(start(replace(state, prompt=None, tasks=(Task("halt"),), over=False), seat, card))


def test_g01_beacon_moves_a_guard_that_arrests_on_entry() -> None:
    """G01 [R]: a guard within 5 moves up to 4; entering a visible thief's space arrests him."""
    state = at(at(table(guards=("N52",)), 0, "N71"), 1, "N62", yellow=1)
    state = effect(state, 0, "G01")  # the only guard in range is chosen without asking
    assert "to N62" in options(state) and "stop" in options(state)
    state = answer(state, "to N62")
    assert state.thief(1).space == "VN" and state.guards == ("N62",)


def test_g01_beacon_is_steered_space_by_space_past_a_thief_and_a_guard() -> None:
    """G01 [R] "move it freely up to 4" (section 9: the mover decides how): the player steers
    the guard, here around a visible thief who lies on the shortest way (N52-N62-N63), through
    another guard's space, where it may not stop (D-7), onto N63 after 4 steps."""
    state = at(at(table(guards=("N52", "N53")), 0, "N71"), 1, "N62", yellow=1)
    state = answer(effect(state, 0, "G01"), "target N52")
    assert options(state) == ["stop", "to N51", "to N53", "to N62"]
    state = answer(state, "to N53")
    assert "stop" not in options(state) and state.guards == ("N52", "N53")
    state = answer(state, "to N54", "to N64", "to N63")  # the 4th step ends the move
    assert state.prompt is None and state.guards == ("N53", "N63")
    assert state.thief(1).space == "N62" and state.thief(1).yellow == 1


def test_g04_confusing_gas_steers_each_guard_up_to_two_spaces() -> None:
    """G04 [R] "move each guard within 5 spaces up to 2 spaces in any direction", each as the
    player chooses: one at a time by space id, each stopped anywhere after 0 to 2 steps; a step
    onto a visible thief's space arrests him and ends that guard's move."""
    state = at(at(table(guards=("N52", "N54")), 0, "N71"), 1, "N62", yellow=1)
    state = effect(state, 0, "G04")
    assert options(state) == ["stop", "to N51", "to N53", "to N62"]
    state = answer(state, "to N51", "to N41")  # 2 steps: the next guard is asked
    assert state.guards == ("N41", "N54") and "to N64" in options(state)
    state = answer(state, "stop")
    assert state.prompt is None and state.guards == ("N41", "N54")
    state = effect(at(state, 1, "N62"), 0, "G04")
    state = answer(state, "to N42", "stop", "to N64", "to N63")
    assert state.thief(1).space == "N62" and state.guards == ("N42", "N63")
    state = answer(effect(state, 0, "G04"), "to N62")  # N42 is 6 away: out of range
    assert state.thief(1).space == "VN" and state.guards == ("N42", "N62")


def test_g12_firecracker_guard_arrests_a_thief_who_began_the_round_on_its_space() -> None:
    """G12 (22.2: "arrests apply, including thieves who started the round on its space"; section
    16): the guard on N52, 4 from the chosen N72, arrests the visible thief standing with it and
    stays; the guard on N53, 5 away, is out of the blast and stays put."""
    state = at(at(table(guards=("N52", "N53")), 0, "N71"), 1, "N52", yellow=1)
    state = answer(effect(state, 0, "G12"), "target N72")
    assert state.thief(1).space == "VN" and state.thief(1).yellow == 0
    assert state.guards == ("N52", "N53")
    moved = answer(effect(at(table(guards=("N52",)), 0, "N73"), 0, "G12"), "target N72")
    assert moved.guards == ("N71",)  # without a thief on its space it moves 3 towards N72


def test_s04_arson_second_fire_takes_guild_support_range_too() -> None:
    """S04 (22.4, range 4) under C01 Guild Support (+1 range to every card with a range): both
    fire tiles may go 5 away, the second as well as the first."""
    state = at(table("zain,jasmine", event="C01"), 0, "N71")
    state = effect(state, 0, "S04")
    assert "fire N41" in options(state)
    state = answer(state, "fire N41")
    assert "fire N43" in options(state)
    state = answer(state, "fire N43")
    assert state.fire == ("N41", "N43")


def test_g07_smoke_hides_and_marks_for_theft() -> None:
    """G07, 15, 13: smoke on the space and around it hides the thieves there, and the thief
    named becomes a theft target (a marker: he is not on the thrower's space)."""
    state = at(at(table(), 0, "N71"), 1, "N72", yellow=1)
    state = answer(effect(state, 0, "G07"), "target N72", "target 1")
    assert {"N72", "N71", "N73", "N82"} <= set(state.smoke)
    assert hidden(state, 1) and state.thief(1).marker


def test_g09_fishing_rod_steals_at_once_once_per_round() -> None:
    """G09, 13: a jewel from a thief within 3 at once; a robbed thief is not offered again."""
    state = at(at(table(), 0, "N71"), 1, "N72", green=1, yellow=1)
    state = effect(state, 0, "G09")
    assert options(state) == ["steal 1:green", "steal 1:yellow"]
    state = answer(state, "steal 1:green")
    assert (state.thief(0).green, state.thief(1).green, state.thief(1).robbed) == (1, 0, 1)
    again = effect(replace(state, over=False), 0, "G09")
    assert again.prompt is None  # nobody left to rob: the card does nothing (D-4)


def test_g10_cloak_hides() -> None:
    state = effect(at(table(), 0, "N71"), 0, "G10")
    assert hidden(state, 0)


def test_g11_rope_and_hook_cannot_be_arrested() -> None:
    """G11 [R]: repositioned within 2 and not arrestable, even onto a guard's space."""
    state = at(table(guards=("N73",)), 0, "N82")
    state = answer(effect(state, 0, "G11"), "to N73")
    assert state.thief(0).space == "N73" and state.thief(0).protected
    state = scenario(replace(state, over=False), Task("guards"))
    assert state.thief(0).space == "N73"


def test_g15_bribed_guard_neither_detects_nor_moves() -> None:
    state = at(table(guards=("N52",)), 0, "N51")
    state = effect(state, 0, "G15")  # the only figure in range
    assert state.bribed == ("N52",)
    state = scenario(replace(state, over=False), Task("guards"))
    assert state.guards == ("N52",) and state.thief(0).space == "N51"


def test_g05_trapped_thief_cannot_move() -> None:
    """G05: a trapped thief's movement has no steps (he may still pick up where he stands)."""
    state = at(at(table(), 0, "N71"), 1, "N72")
    state = effect(state, 0, "G05")  # the only target in range
    assert state.thief(1).trapped
    state = scenario(replace(state, over=False), Task("move", 1, "", 4))
    assert not [o for o in options(state) if o.startswith("step")]


def test_g06_fire_blocks_all_but_zain() -> None:
    """G06, 15: fire blocks entering a space; Zain's Fireproof (22.4) ignores it."""
    for thief, blocked in (("jasmine,zain", True), ("zain,jasmine", False)):
        state = at(table(thief, fire=("N72",)), 0, "N82")
        state = scenario(state, Task("move", 0, "", 4))
        assert ("step N72" not in options(state)) == blocked


def test_zain_comes_out_of_the_sewer_onto_fire() -> None:
    """Section 11 (fire blocks repositioning onto it) and Zain's Fireproof (22.4: fire tiles do
    not block Zain): a sewer exit on fire is shut to Jasmine, open to Zain."""
    for thief, blocked in (("jasmine,zain", True), ("zain,jasmine", False)):
        state = at(table(thief, fire=("S40",)), 0, "N64")
        state = scenario(state, Task("move", 0, "", 4))
        assert ("sewer S40" not in options(state)) == blocked and "sewer E40" in options(state)


def test_noiron_moves_one_further() -> None:
    """22.4 Wall-climber: every movement effect of Noiron's gets +1 space."""
    from arena.games.age_of_thieves.movement import movement

    state = at(table("noiron,zain"), 0, "N82")
    state = movement(replace(state, tasks=(Task("halt"),)), 0, 4)
    assert state.tasks[0] == Task("move", 0, "", 5)


def test_g03_bola_sets_aside_four_but_not_below_two() -> None:
    """G03 [R], D-14: at the next planning he sets 4 AP aside, keeping at least 2."""
    for blue, left in ((10, 6), (3, 2)):
        state = at(at(table(), 0, "N71"), 1, "N72", blue=blue)
        state = effect(state, 0, "G03")  # the only thief in range
        assert state.thief(1).bola_next
        state = scenario(replace(state, over=False), Task("plan_start", 1))
        assert state.thief(1).pool == left


def test_ambush_cunning_plan_draws_two_and_adds_two_ap_next_round() -> None:
    """9.1 Cunning Plan: at the start of the next planning, 2 cards and 2 temporary AP."""
    state = at(table(), 0, "N82")
    state = state.with_thief(0, plan=(Planned("B02", 3),), hand=())
    state = answer(scenario(state, Task("turn", 0, n=3)), "cunning B02")
    state = scenario(replace(state, over=False), Task("plan_start", 0))
    assert len(state.thief(0).hand) == 2 and state.thief(0).pool == 12


def test_ambush_cleverness_draws_then_discards() -> None:
    state = at(table(), 0, "N82").with_thief(0, plan=(Planned("B02", 3),), hand=("G10",))
    state = answer(scenario(state, Task("turn", 0, n=3)), "clever B02")
    assert state.prompt is not None and state.prompt.name == "discard"
    state = answer(state, "discard G10")
    assert len(state.thief(0).hand) == 1 and "G10" in state.discard


def test_s01_rat_spies_are_seen_by_morius_alone() -> None:
    """S01 [PUB], 22.7: Morius sees two face-down tiles and may swap them; nobody else sees."""
    tiles = (("N71", "informer"), ("N73", "plain_guard"))
    state = at(table("morius,zain", tiles=tiles), 0, "N82")
    state = answer(effect(state, 0, "S01"), "target N71")  # N73 is the only other tile
    assert GAME.observation(state, 0).to_json()["peeks"] == [
        ["N71", "informer"],
        ["N73", "plain_guard"],
    ]
    assert GAME.observation(state, 1).to_json()["peeks"] == []
    state = answer(state, "swap")
    assert state.tiles == (("N71", "plain_guard"), ("N73", "informer"))


def test_s03_shadows_of_the_city_the_victim_chooses_the_card() -> None:
    """S03 [R]: the other thief gives a general card of his own choice."""
    state = at(at(table("noiron,zain"), 0, "N82", hand=()), 1, "S82", hand=("G10", "G13"))
    state = effect(state, 0, "S03")  # the only other thief
    assert state.prompt is not None and state.prompt.seat == 1
    assert options(state) == ["give G10", "give G13"]
    state = answer(state, "give G13")
    assert state.thief(0).hand == ("G13",) and state.thief(1).hand == ("G10",)


def test_s06_confiscation_takes_a_jewel_lying_within_three() -> None:
    state = at(table("joanne,zain", jewels=(("N72", "green"),), green_supply=3), 0, "N82")
    state = answer(effect(state, 0, "S06"), "take N72:green")
    assert state.thief(0).green == 1 and state.jewels == ()


def test_s02_seduction_lures_a_guard_up_to_two_spaces_towards_jasmine() -> None:
    """S02 [R-ex, range PROPOSAL 22.4]: a guard within 5 moves *up to* 2 along its D-7 route
    towards Jasmine; she says where on it the guard stops, staying put included."""
    from arena.games.age_of_thieves.paths import guard_route
    from arena.games.age_of_thieves.queries import board

    base = at(table(guards=("N52",)), 0, "N71")  # seat 0 is Jasmine
    route = guard_route(board(), "N52", "N71", 2, base.fire)
    assert len(route) == 2
    asked = effect(base, 0, "S02")  # the only guard in range is chosen without asking
    assert options(asked) == sorted(f"to {space}" for space in ("N52", *route))
    for stop, expected in (("N52", "N52"), (route[0], route[0]), (route[1], route[1])):
        assert answer(asked, f"to {stop}").guards == (expected,)
