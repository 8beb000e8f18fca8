"""The decisions D-19 to D-32 of docs/rules/age-of-thieves.md (section 22.5), each on a small
scenario named by its ruling."""

from __future__ import annotations

from arena.games.age_of_thieves.activation import _ranked
from arena.games.age_of_thieves.effects import start
from arena.games.age_of_thieves.hands import draw
from arena.games.age_of_thieves.paths import guard_route
from arena.games.age_of_thieves.queries import board
from arena.games.age_of_thieves.state import Planned, Status, Task, replace
from arena.games.age_of_thieves.targeting import crowd_moves
from tests.games.age_of_thieves.helpers import GAME, answer, options, scenario
from tests.games.age_of_thieves.test_engine_rules import at, table

# N80, the north-west corner, cut off from the east: its paths lead to N81, N70, W84 and XN1
CORNER_FIRE = ("N81", "N70", "W84")


def test_d27_a_guard_cut_off_from_its_target_never_steps_sideways() -> None:
    """D-27: N82 is 2 from N80 counting through fire, and so is N71 (lower id) within its
    movement: the guard stays rather than step to a space no nearer (it went to N71 before)."""
    assert guard_route(board(), "N82", "N80", 3, fire=CORNER_FIRE) == ()
    state = at(at(table(guards=("N82",), fire=CORNER_FIRE), 0, "N80"), 1, "S82")
    state = scenario(state, Task("guards"))
    assert state.guards == ("N82",) and state.thief(0).space == "N80"


def test_d27_a_cut_off_guard_still_takes_the_nearest_strictly_nearer_space() -> None:
    """D-27: from N62 (4 from N80 through fire) both N71 and N82 are 2 away; N71 has the lower
    id. From N72 (3 away) the strictly nearer N71 is one step."""
    assert guard_route(board(), "N62", "N80", 3, fire=CORNER_FIRE) == ("N61", "N71")
    state = at(at(table(guards=("N72",), fire=CORNER_FIRE), 0, "N80"), 1, "S82")
    assert scenario(state, Task("guards")).guards == ("N71",)


def test_d32_the_draw_of_the_last_card_reshuffles_the_discards_at_once() -> None:
    """D-32 (section 20, [R]): the pile becomes the new deck as the last card is drawn, not at
    the next draw; later discards start a new pile."""
    state = at(table(deck=("G13",), discard=("G10", "G12")), 0, "N82").with_thief(0, hand=())
    state = draw(state, 0)
    assert state.thief(0).hand == ("G13",)
    assert sorted(state.deck) == ["G10", "G12"] and state.discard == ()


def test_d32_with_no_discards_then_the_next_draw_shuffles_in_what_came_since() -> None:
    """D-32: the last card drawn with an empty pile leaves the deck empty; a card discarded
    after that is shuffled in by the next draw; with nothing discarded a draw gets no card."""
    state = at(table(deck=("G13",), discard=()), 0, "N82").with_thief(0, hand=())
    state = draw(state, 0)
    assert state.deck == () and state.discard == ()
    state = draw(replace(state, discard=("G10",)), 0)
    assert state.thief(0).hand == ("G10", "G13") and state.deck == state.discard == ()
    state = draw(state, 0)
    assert state.thief(0).hand == ("G10", "G13")


def test_d19_eight_empty_yellow_jewel_spaces_a_district_at_setup() -> None:
    """D-19: with 4 thieves on the start fields, 12 spaces of each district are 6 or more from
    every thief; 4 of them hold a city tile (one also the starting guard), so 8 are legal."""
    start = GAME.create({"players": 4}, 3)
    assert sorted(t.space[1:] for t in start.thieves) == ["82"] * 4
    for event, district in (("C01", "N"), ("C02", "E"), ("C03", "S"), ("C04", "W")):
        state = scenario(start, Task("jewel"), event=event)
        spaces = [o.split()[1] for o in options(state)]
        assert len(spaces) == 8 and all(s.startswith(district) for s in spaces)


def test_d20_a_sewer_entrance_is_used_from_the_start_space_with_no_steps_left() -> None:
    """D-20: standing on an entrance during a move is enough, even with no steps left; Rope &
    Hook's landing (a reposition, flag z) gives no sewer use."""
    state = at(table(), 0, "N64")
    moved = scenario(state, Task("move", 0, "", 0))
    assert "sewer N40" in options(moved) and not any(o.startswith("step") for o in options(moved))
    landed = scenario(state, Task("move", 0, "z", 0))
    assert not any(o.startswith("sewer") for o in options(landed))


def test_d21_a_trapped_thief_takes_no_step_nor_pocket_but_may_use_the_sewer() -> None:
    """D-21: G05 holds a thief's steps and his "back of my hand" tile, not the sewer."""
    state = at(table(), 0, "N64", trapped=True, pockets=1)
    state = scenario(state, Task("move", 0, "", 4))
    found = options(state)
    assert "sewer N40" in found and "pocket" not in found
    assert not any(o.startswith("step") for o in found)


def test_d22_cleverness_with_five_cards_discards_after_the_draw_and_keeps_five() -> None:
    """D-22: draw, then discard any general card (the new one included); the hand limit is
    checked only after the discard, so nothing more is discarded."""
    hand = ("G01", "G02", "G03", "G04", "G06")
    state = at(table(deck=("G10",)), 0, "N82").with_thief(0, plan=(Planned("B02", 3),), hand=hand)
    state = answer(scenario(state, Task("turn", 0, n=3)), "clever B02")
    assert state.prompt is not None and state.prompt.name == "discard"
    assert "discard G10" in options(state) and len(options(state)) == 6
    state = answer(state, "discard G01")
    assert state.thief(0).hand == ("G02", "G03", "G04", "G06", "G10")
    assert state.prompt is None and state.reason == "halt"


def test_d23_firecracker_guard_arrests_on_its_own_space_and_goes_no_further() -> None:
    """D-23: a guard that G12 sets moving arrests the thief on its space and stops there; a
    bribed guard is not moved by G12 and arrests nobody that way."""
    state = at(at(table(guards=("N52",)), 0, "N52"), 1, "N72")
    moved = crowd_moves(state, "N72", 4, 3, captains=False, early=True)
    assert moved.thief(0).space == "VN" and moved.guards == ("N52",)
    bribed = crowd_moves(replace(state, bribed=("N52",)), "N72", 4, 3, False, early=True)
    assert bribed.thief(0).space == "N52" and bribed.guards == ("N52",)


def test_d24_a_bribed_guard_sits_out_the_activation_but_arrests_who_walks_onto_it() -> None:
    """D-24: no detection, move or arrest at its initiative, not even on its own space; a
    visible thief who moves onto its space is still arrested (section 11)."""
    state = at(at(table(guards=("N52",), bribed=("N52",)), 0, "N52"), 1, "N62")
    after = scenario(state, Task("guards"))
    assert after.guards == ("N52",)
    assert (after.thief(0).space, after.thief(1).space) == ("N52", "N62")
    walked = answer(scenario(at(state, 0, "N51"), Task("move", 0, "", 4)), "step N52")
    assert walked.thief(0).space == "VN"


def test_d25_riot_counts_only_thieves_a_guard_could_detect() -> None:
    """D-25: a hidden thief within its attention does not hold a guard back from A10; a
    visible one does."""
    riot = table(alarm=("A10",), status=Status.ALARM, escape="S", guards=("N62",))
    hidden_near = scenario(at(at(riot, 0, "N61"), 1, "E82"), Task("event"))  # N61: a hideout
    assert hidden_near.guards != ("N62",)
    seen_near = scenario(at(at(riot, 0, "N63"), 1, "E82"), Task("event"))
    assert seen_near.guards == ("N62",)


def test_d26_figures_that_can_arrest_are_ranked_before_those_that_cannot() -> None:
    """D-26: N50's thief is 4 away (out of its movement of 3), S50's 2: S50 goes first though
    N50 has the lower id. When S50's thief is protected (Rope & Hook) neither can arrest, and
    the nearer candidate goes first, still S50."""
    state = at(at(table(guards=("N50", "S50")), 0, "N54"), 1, "S52")
    todo = {"N50": frozenset({0}), "S50": frozenset({1})}
    assert board().distance("N50", "N54") == 4 and board().distance("S50", "S52") == 2
    assert _ranked(state, todo, captain=False) == ["S50", "N50"]
    protected = state.with_thief(1, protected=True)
    assert _ranked(protected, todo, captain=False) == ["S50", "N50"]
    near_first = at(protected, 1, "S53")  # 3 away: still nearer than 4
    assert _ranked(near_first, todo, captain=False) == ["S50", "N50"]


def test_d28_the_arrested_thief_chooses_the_card_from_his_hand_not_his_plan() -> None:
    """D-28: his declared cards are not in his hand; with no general card in hand he discards
    nothing."""
    state = at(table(guards=("N52",)), 0, "N62", hand=("G10", "G13"), plan=(Planned("G06", 2),))
    state = scenario(at(state, 1, "S82"), Task("guards"))
    assert state.prompt is not None and state.prompt.name == "discard"
    assert options(state) == ["discard G10", "discard G13"]
    empty = scenario(at(at(table(guards=("N52",)), 0, "N62", hand=()), 1, "S82"), Task("guards"))
    assert empty.thief(0).space == "VN" and empty.prompt is None


def test_d29_an_occupied_alarm_space_gets_no_figure_a_thief_does_not_stop_one() -> None:
    """D-29: the captain whose space holds a guard stays in the supply; a thief on a guard
    alarm space does not stop the guard, nor is he arrested as it arrives (D-8)."""
    state = table(escape="N", alarm_pending=True, guards=("N81",), alarm=("A01",))
    state = scenario(at(at(state, 0, "N70"), 1, "S82"), Task("event"))
    assert state.captains == ("N83",) and state.captain_supply == 1
    assert "N70" in state.guards and "N74" in state.guards
    assert state.thief(0).space == "N70"


def test_d30_the_token_skips_thieves_who_left_and_the_last_one_keeps_it() -> None:
    """D-30: clean-up passes the first player clockwise to the next thief in the city."""
    state = GAME.create({"players": 3, "thieves": "jasmine,zain,nikolai"}, 1)
    gone = state.with_thief(1, space="", escaped=(2, 1), exit="XN1")
    after = scenario(replace(gone, first=0, calm=("C01",)), Task("cleanup"))
    assert after.first == 2
    alone = gone.with_thief(2, space="", escaped=(2, 2), exit="XN2")
    after = scenario(replace(alone, first=0, calm=("C01",)), Task("cleanup"))
    assert after.first == 0


def test_d31_rope_and_hook_goes_to_another_space_and_without_one_does_nothing() -> None:
    """D-31: 1 or 2 steps away, never his own space, fire, a dungeon or an exit; with no such
    space there is no choice and no protection."""
    state = at(table(), 0, "N60")
    asked = start(state, 0, "G11")
    spaces = [o.split()[1] for o in options(asked)]
    assert spaces and "N60" not in spaces and "VN" not in spaces
    assert all(board().distance("N60", s) in (1, 2) for s in spaces)
    blocked = replace(state, fire=tuple(sorted(spaces)))
    nothing = start(blocked, 0, "G11")
    assert nothing.prompt is None and not nothing.thief(0).protected
