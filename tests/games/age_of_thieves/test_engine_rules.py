"""Rules of the Age of Thieves engine, each test on a small scenario named by its spec section or
decision (docs/rules/age-of-thieves.md)."""

from __future__ import annotations

from arena.games.age_of_thieves.engine import TASKS
from arena.games.age_of_thieves.state import Planned, State, Status, Task, replace
from tests.games.age_of_thieves.helpers import GAME, answer, options, scenario


def table(thieves: str = "jasmine,zain", **changes: object) -> State:
    """A 2-player game with no figure, jewel or tile on the board, nothing queued."""
    state = GAME.create({"players": 2, "thieves": thieves}, 1)
    blank = {"guards": (), "jewels": (), "tiles": (), "guard_supply": 20, "green_supply": 4}
    blank["yellow_supply"], blank["die"] = 10, 3
    return replace(state, prompt=None, tasks=(), first=0, **(blank | changes))


def at(state: State, seat: int, space: str, **changes: object) -> State:
    return state.with_thief(seat, space=space, **changes)


def test_section_7_worked_example_through_the_engine() -> None:
    """Section 7 [R-ex]: first player Morius 4 + 4, Noiron 4 + 2, g = 2. Calm: M4 N4 M4 N2 then
    the guards; alarm: M4 N4 M4, guards, N2. Each turn is the seat's decision."""
    for status, expected in (
        (Status.CALM, [(0, 4), (1, 4), (0, 4), (1, 2), "guards"]),
        (Status.ALARM, [(0, 4), (1, 4), (0, 4), "guards", (1, 2)]),
    ):
        state = table("morius,noiron", die=2, status=status)
        state = state.with_thief(0, plan=(Planned("B01", 4), Planned("B02", 4)))
        state = state.with_thief(1, plan=(Planned("B01", 4), Planned("B02", 2)))
        state = TASKS["reveal"](state, Task("reveal"))
        order = [t.name if t.name == "guards" else (t.seat, t.n) for t in state.tasks[:-1]]
        assert order == expected
        seen = []  # through the engine: who is asked, with which AP
        state = scenario(state, *state.tasks[:-1])
        while not state.over:
            assert state.prompt is not None and state.prompt.name == "turn"
            seen.append((state.prompt.seat, state.prompt.task.n))
            state = answer(state, next(o for o in options(state) if o.startswith("decline")))
        assert seen == [t for t in expected if t != "guards"]


def test_section_8_plans_stay_hidden_until_the_reveal() -> None:
    """Section 8, 22.7: seat 1 sees neither seat 0's plan nor a change of its hand size while
    seat 0 plans; after the reveal an unresolved card shows its AP only."""
    state = table()
    state = state.with_thief(0, hand=("G10", "G13"), pool=10)
    state = scenario(state, Task("plan", 0), Task("plan", 1), Task("reveal"))
    before = GAME.observation(state, 1).to_json()
    state = answer(state, "plan G13", "ap 3")
    during = GAME.observation(state, 1).to_json()
    assert during["thieves"][0] == before["thieves"][0]
    assert during["thieves"][0]["hand_size"] == 2 and during["thieves"][0]["plan"] == []
    assert GAME.observation(state, 0).to_json()["plan"][0]["card"] == "G13"
    state = answer(state, "done")  # seat 1 has no AP: its "done" answers itself
    shown = GAME.observation(state, 1).to_json()["thieves"][0]
    assert shown["plan"] == [{"card": "?", "ap": 3, "under": "", "status": "pending"}]


def test_section_8_guild_agent_pays_two_on_one_card() -> None:
    """Sections 8, 14: an Informer adds 1 AP, a Guild agent 2 and indivisibly; markers first."""
    state = table().with_thief(0, pool=1, informers=0, agents=1)
    state = scenario(state, Task("plan", 0))
    state = answer(state, "plan B01")
    assert options(state) == ["ap 1", "ap 2", "ap 3"]
    state = answer(state, "ap 2")
    thief = state.thief(0)
    assert (thief.pool, thief.agents, thief.plan[0].ap) == (1, 0, 2)


def test_section_8_ap_options_read_in_numeric_order() -> None:
    """Section 8 (any number of AP on a card) and the Game API's sorted legal actions: 12 AP
    list as `ap 1` ... `ap 12` by value, not as text (`ap 10` after `ap 9`), and `sorted` on
    the actions (the arena's checker) agrees with the engine's order."""
    state = table().with_thief(0, pool=12)
    state = answer(scenario(state, Task("plan", 0)), "plan B01")
    assert options(state) == [f"ap {n}" for n in range(1, 13)]
    legal = list(GAME.legal_actions(state))
    assert sorted(legal) == legal and min(legal) == legal[0] and max(legal) == legal[-1]


def test_d5_a_thief_in_the_dungeon_plans_move_first_with_the_most_ap() -> None:
    """D-5: in the dungeon only Move may open the plan; no other card gets more AP than it."""
    state = at(table(), 0, "VN", jailed=True, hand=("G10",), pool=5)
    state = scenario(state, Task("plan", 0))
    assert options(state) == ["done", "plan B01"]
    state = answer(state, "plan B01", "ap 2", "plan G10")
    assert options(state) == ["ap 1", "ap 2"]


def test_d4_sprint_only_alone_and_it_declines_the_rest() -> None:
    """D-4, 9.1: Sprint is offered while no card is resolved; choosing it declines the others."""
    state = at(table(), 0, "N82")
    state = state.with_thief(0, plan=(Planned("B01", 5), Planned("B02", 5)))
    state = scenario(state, Task("turn", 0, n=5), Task("turn", 0, n=5))
    assert "sprint B01" in options(state) and "cunning B02" in options(state)
    state = answer(state, "sprint B01", "stop")
    assert [p.status for p in state.thief(0).plan] == ["resolved", "declined"]
    state = at(table(), 0, "N82", resolved=1, plan=(Planned("B01", 5),))
    state = scenario(state, Task("turn", 0, n=5))
    assert options(state) == ["decline B01", "sneak B01"]


def test_section_11_arrest_on_entering_a_guards_space() -> None:
    """Section 11, 17: stepping onto a guard's space: a jewel lost, a card discarded, the dungeon
    of the district, every pending card declined."""
    state = at(table(guards=("N72",)), 0, "N82", yellow=1, hand=("G10",))
    state = state.with_thief(0, plan=(Planned("B01", 4, status="resolved"), Planned("B02", 1)))
    state = scenario(state, Task("move", 0, "", 4))
    state = answer(state, "step N72")
    thief = state.thief(0)
    assert (thief.space, thief.yellow, thief.hand, thief.jailed) == ("VN", 0, (), True)
    assert state.yellow_supply == 11 and thief.plan[1].status == "declined"


def test_22_4_joanne_walks_past_a_guard_but_not_a_captain() -> None:
    """22.4 Old Comrades: moving onto a guard's space does not arrest Joanne; a captain's does."""
    state = at(table("joanne,zain", guards=("N72",), captains=("N71",)), 0, "N82")
    state = answer(scenario(state, Task("move", 0, "", 4)), "step N72")
    assert state.thief(0).space == "N72"
    state = answer(state, "step N71")
    assert state.thief(0).space == "VN"


def test_section_12_a_hidden_thief_is_not_arrested_on_entry() -> None:
    """Section 12: a thief in smoke (hidden) may enter a guard's space."""
    state = at(table(guards=("N72",), smoke=("N72",)), 0, "N82")
    state = answer(scenario(state, Task("move", 0, "", 4)), "step N72")
    assert state.thief(0).space == "N72" and not state.thief(0).arrested


def test_d10_sewer_ends_the_movement_and_curfew_closes_it() -> None:
    """Section 11, D-10: an entrance leads to any exit and ends the movement; C12 shuts it."""
    state = at(table(), 0, "N64")
    state = scenario(state, Task("move", 0, "", 4))
    sewers = [o for o in options(state) if o.startswith("sewer")]
    assert sewers == ["sewer E40", "sewer N40", "sewer S40", "sewer W40"]
    state = answer(state, "sewer S40")
    assert state.thief(0).space == "S40" and state.over  # nothing left to do: the move ended
    curfew = scenario(at(table(event="C12"), 0, "N64"), Task("move", 0, "", 4))
    assert not [o for o in options(curfew) if o.startswith("sewer")]


def test_section_13_each_thief_is_robbed_once_per_round() -> None:
    """Section 13, D-18: a marked thief is robbed by the first who passes; not again."""
    state = table("jasmine,zain")
    state = at(state, 1, "N72", yellow=2, marker=True)
    state = at(state, 0, "N82")
    state = scenario(state, Task("move", 0, "", 4))
    state = answer(state, "step N72")
    assert "steal 1:yellow" in options(state)
    state = answer(state, "steal 1:yellow")
    assert (state.thief(0).yellow, state.thief(1).yellow, state.thief(1).robbed) == (1, 1, 1)
    assert not [o for o in options(state) if o.startswith("steal")]


def test_sprint_forbids_pick_ups_and_theft() -> None:
    """9.1: Sprint may not steal nor pick anything up."""
    state = table(jewels=(("N72", "yellow"),), yellow_supply=9)
    state = at(at(state, 1, "N72", yellow=1, marker=True), 0, "N82")
    state = answer(scenario(state, Task("move", 0, "s", 6)), "step N72")
    assert not [o for o in options(state) if o.startswith(("take", "steal"))]


def test_section_16_guards_detect_move_and_arrest() -> None:
    """Section 16, D-6: a guard detects a visible thief within 4 and moves up to 3 towards him,
    arresting him when it reaches him; a thief on a hideout is not detected."""
    state = at(table(guards=("N52",)), 0, "N71")  # 3 steps: N62, N61, N71
    state = scenario(state, Task("guards"))
    assert state.thief(0).space == "VN" and state.guards == ("N71",)
    hidden = at(table(guards=("N52",)), 0, "N61")  # N61 is a hideout
    hidden = scenario(hidden, Task("guards"))
    assert hidden.thief(0).space == "N61" and hidden.guards == ("N52",)


def test_section_16_guard_moves_towards_a_thief_out_of_reach() -> None:
    """Section 16: detection does not guarantee an arrest: the guard moves 3 and stops."""
    state = at(table(guards=("N52",)), 0, "N72")  # 4 steps away: detected, 3 moves
    state = scenario(state, Task("guards"))
    assert state.thief(0).space == "N72" and state.guards == ("N71",)
    state = at(table(guards=("N50",)), 0, "N82")  # 5 steps away: not detected
    state = scenario(state, Task("guards"))
    assert state.guards == ("N50",)


def test_section_18_first_emperors_jewel_pick_up_and_the_alarm() -> None:
    """Section 18, D-13: the first taker gets the best-thief token and players-1 red AP; the
    district card is drawn after his action; next round the alarm is raised."""
    state = at(table(jewels=(("T", "ej"),)), 0, "T")
    state = scenario(state, Task("move", 0, "", 4), Task("turn", 1, n=1))
    state = answer(state, "take ej", "stop")
    thief = state.thief(0)
    assert (thief.ej, thief.best, thief.red) == (True, True, 1)
    assert state.escape and state.alarm_pending and len(state.districts) == 3
    alarm = scenario(replace(state, over=False), Task("event"))
    assert alarm.status is Status.ALARM and len(alarm.captains) == 2 and len(alarm.alarm) == 4


def test_section_19_escape_with_the_emperors_jewel_wins_at_once() -> None:
    """Section 19, D-11: stepping onto an open exit of the drawn district with the EJ wins."""
    state = at(table(escape="N"), 0, "N80", ej=True, best=True)
    state = scenario(state, Task("move", 0, "", 4))
    assert "step XN1" in options(state)
    state = answer(state, "step XN1")
    result = GAME.result(state)
    assert result.winner == 0 and result.details["emperors_jewel"]


def test_exits_only_of_the_drawn_district() -> None:
    """Section 18, 22.8: no exit before the draw, none of another district."""
    for escape in ("", "E"):
        state = scenario(at(table(escape=escape), 0, "N80"), Task("move", 0, "", 4))
        assert "step XN1" not in options(state)


def test_d16_the_game_ends_when_every_thief_has_left() -> None:
    """D-16, section 19: the last thief out ends the game; most VP among those out wins."""
    state = at(table(escape="N"), 0, "N80", green=1)
    state = state.with_thief(1, space="", escaped=(3, 2), exit="XN2")
    state = answer(scenario(state, Task("move", 0, "", 4)), "step XN1")
    result = GAME.result(state)
    assert result.winner == 0 and result.scores == (2, 0)


def test_section_19_everyone_loses_without_the_jewel() -> None:
    """Section 19: the calm deck used up and nobody took the EJ: everybody loses."""
    state = scenario(table(calm=()), Task("cleanup"))
    assert state.over and state.winner == -1
    assert GAME.result(state).details["everyone_loses"]


def test_d12_jewel_taken_in_the_tenth_calm_round_goes_on_to_the_alarm() -> None:
    """D-12: the calm deck is empty but the EJ was taken: the game goes on."""
    state = scenario(table(calm=(), alarm_pending=True, escape="S"), Task("cleanup"))
    assert state.reason == "halt" and state.tasks == () and state.round == 2


def test_section_17_ej_drops_on_the_imperial_guardhouse() -> None:
    """Section 17: the EJ holder caught in an outer district leaves it on that district's
    imperial guardhouse; after the alarm every thief goes to the escape district's dungeon."""
    state = at(table(guards=("N72",), status=Status.ALARM, escape="S"), 0, "N82", ej=True)
    state = answer(scenario(state, Task("move", 0, "", 4)), "step N72")
    assert ("N42", "ej") in state.jewels and state.thief(0).space == "VS"


def test_section_14_plain_clothes_guard_arrests_the_revealer() -> None:
    """Section 14, D-8: a plain-clothes guard is placed on the space and arrests him."""
    state = at(table(tiles=(("N71", "plain_guard"),)), 0, "N71")
    state = answer(scenario(state, Task("move", 0, "", 4)), "take tile")
    assert state.guards == ("N71",) and state.thief(0).space == "VN"


def test_section_14_informer_is_kept() -> None:
    state = at(table(tiles=(("N71", "informer"),)), 0, "N71")
    state = answer(scenario(state, Task("move", 0, "", 4)), "take tile")
    assert state.thief(0).informers == 1 and state.tiles == ()


def test_5b_yellow_jewel_spaces_are_far_from_every_thief() -> None:
    """5(b), 22.6: the first player picks an empty space of the compass district at least 6
    from every thief."""
    from arena.games.age_of_thieves.queries import board

    state = at(at(table(event="C01"), 0, "N82"), 1, "S82")  # C01: compass N
    state = scenario(state, Task("jewel"))
    spaces = [o.split()[1] for o in options(state)]
    assert spaces and all(s.startswith("N") for s in spaces)
    assert all(board().distance(s, t) >= 6 for s in spaces for t in ("N82", "S82"))
    assert "jewel N72" not in options(state)


def test_a06_the_first_player_closes_an_exit() -> None:
    """A06, 22.6: the first player closes one of the escape district's exits for the round."""
    state = scenario(table(status=Status.ALARM, escape="W", alarm=("A06",)), Task("event"))
    assert options(state) == ["close XW1", "close XW2"]
    state = answer(state, "close XW2")
    assert state.closed == "XW2"


def test_d5_no_card_is_offered_that_no_ap_can_pay_in_the_dungeon() -> None:
    """D-5: with Move at 1 AP, a Guild agent (2, indivisible) can pay for no other card, so no
    card is offered: a declared card never stays without AP (a game of 3 players, seed 120)."""
    state = at(table(), 0, "VN", jailed=True, hand=("G10",), pool=1, agents=1)
    state = answer(scenario(state, Task("plan", 0), Task("plan", 1)), "plan B01", "ap 1")
    assert state.thief(0).planned and [p.ap for p in state.thief(0).plan] == [1]


def test_d9_an_arrested_thief_picks_yellow_or_trinket() -> None:
    """D-9: his lowest-value jewel goes; between a yellow jewel and a Trinket he chooses."""
    state = at(table(guards=("N72",)), 0, "N82", yellow=1, trinkets=1, green=1)
    state = answer(scenario(state, Task("move", 0, "", 4)), "step N72")
    assert options(state) == ["jewel trinket", "jewel yellow"]
    state = answer(state, "jewel trinket")
    thief = state.thief(0)
    assert (thief.yellow, thief.trinkets, thief.green, thief.space) == (1, 0, 1, "VN")


def test_section_16_an_empty_supply_lets_the_first_player_move_a_guard() -> None:
    """Sections 16, 20, 22.6: no guard left in the supply: the first player picks a guard on the
    board to place instead (here the plain-clothes guard of section 14)."""
    state = at(
        table(guards=("S32", "W32"), guard_supply=0, tiles=(("N71", "plain_guard"),)), 0, "N71"
    )
    state = answer(scenario(state, Task("move", 0, "", 4)), "take tile")
    assert options(state) == ["target S32", "target W32"] and state.prompt.seat == state.first  # type: ignore[union-attr]
    state = answer(state, "target W32")
    assert state.guards == ("N71", "S32") and state.thief(0).space == "VN"


def test_d8_plain_clothes_guard_beside_a_guard_asks_among_the_nearest() -> None:
    """D-8, 22.6: the tile's space holds a guard: the new one goes to the nearest free space,
    the first player choosing among equally near ones."""
    state = at(table(guards=("N71",), tiles=(("N71", "plain_guard"),)), 0, "N82")
    state = state.with_thief(0, space="N71", protected=True)  # Rope & Hook: not arrested there
    state = answer(scenario(state, Task("move", 0, "", 4)), "take tile")
    assert options(state) == ["space N61", "space N70", "space N72"]
    state = answer(state, "space N72")
    assert state.guards == ("N71", "N72")


def test_d6_first_player_orders_the_guards_under_the_variant() -> None:
    """D-6 step 4, 22.6: with `first_player_orders_guards` the first player picks the next guard
    and, among equally near thieves, its target; without it D-6 decides: the guard with fewer
    thieves in reach goes first (N54, only seat 1), so both thieves are caught."""
    for flag in (False, True):
        state = table(orders_guards=flag, guards=("N52", "N54"))
        state = at(at(state, 0, "N62", hand=()), 1, "N53", hand=())  # N52 reaches both
        state = scenario(state, Task("guards"))
        if not flag:
            assert state.prompt is None and state.guards == ("N53", "N62")
            assert state.thief(0).space == state.thief(1).space == "VN"
            continue
        assert options(state) == ["target N52", "target N54"]
        state = answer(state, "target N52")
        assert options(state) == ["target 0", "target 1"]
        state = answer(state, "target 1")  # then N54, the only one left, goes for seat 0
        assert state.prompt is None and state.guards == ("N53", "N62")
        assert state.thief(0).space == state.thief(1).space == "VN"


def test_section_8_other_seats_see_plan_steps_as_hidden() -> None:
    """Section 8: a replay shown to another seat hides the cards and AP of a plan."""
    state = scenario(table().with_thief(0, hand=("G13",), pool=10), Task("plan", 0))
    action = GAME.parse_action("plan G13")
    assert GAME.action_seen_by(state, action, 0) == "plan G13"
    assert GAME.action_seen_by(state, action, 1) == "plan (hidden)"
    assert GAME.action_seen_by(state, GAME.parse_action("done"), 1) == "done"


def test_render_shows_a_seat_only_what_it_may_see() -> None:
    """22.7: a seat's picture names its own hand and peeks only; omniscient shows every tile."""
    state = table(tiles=(("N71", "plain_guard"),)).with_thief(1, hand=("G13",))
    mine = GAME.render(state, 0)
    assert "Elixir of Speed" not in mine and "plain_guard" not in mine and "tile(?)@N71" in mine
    everything = GAME.render(state)
    assert "Elixir of Speed" in everything and "tile(plain_guard)@N71" in everything


def test_a_first_player_who_left_the_city_decides_nothing_more() -> None:
    """Sections 11, 5: a thief who has left cannot influence the game; the first player's
    decisions (here D-8's tied space) fall to the next thief on the board."""
    state = table(guards=("N71",), tiles=(("N71", "plain_guard"),), escape="N")
    state = state.with_thief(0, space="", escaped=(1, 1), exit="XN1")
    state = state.with_thief(1, space="N71", protected=True)
    state = answer(scenario(state, Task("move", 1, "", 4)), "take tile")
    assert state.first == 0 and state.prompt is not None and state.prompt.seat == 1


def test_22_6_defaults_of_the_first_players_decisions() -> None:
    """22.6: every first-player decision has a deterministic default; games played with the
    defaults for them (and the variant ordering the guards) end, each default a legal option."""
    import random

    from arena.games.age_of_thieves.defaults import FIRST_PLAYER, default_action
    from tests.games.age_of_thieves.helpers import eager

    used: set[str] = set()
    for seed in range(8):
        config = {"players": 4, "first_player_orders_guards": 1}
        state, rng = GAME.create(config, seed), random.Random(seed)
        while not GAME.is_terminal(state):
            assert state.prompt is not None
            action = default_action(state)
            if state.prompt.name in FIRST_PLAYER:
                assert action in state.prompt.options and action == default_action(state)
                used.add(state.prompt.name)
            else:
                assert action is None
                action = eager(state, rng)
            state = GAME.apply(state, action)
    assert {"jewel", "guard_order"} <= used


def test_9_1_worked_example_noiron_fishing_rod_then_ambush() -> None:
    """9.1 [R-ex]: Noiron plans Ambush with 1 AP and Fishing Rod (Angel) with 6. Using the Rod
    leaves only Cleverness; declining it leaves Cunning Plan too."""
    for rod, ambush in (("resolve G09", ["clever B02", "decline B02"]),
                        ("decline G09", ["clever B02", "cunning B02", "decline B02"])):  # fmt: skip
        state = at(table("noiron,zain"), 0, "N82", plan=(Planned("B02", 1), Planned("G09", 6)))
        state = at(state, 1, "S82")  # Zain, with the EJ, out of the Rod's range
        state = scenario(state, Task("turn", 0, n=6), Task("turn", 0, n=1))
        state = answer(state, rod)
        assert options(state) == ambush


def test_empty_spaces_have_no_figure_thief_jewel_tile_fire_or_smoke() -> None:
    """Section 9 and 5(b): an empty space is a free space (no figure, thief or fire) with no
    jewel, tile or effect tile on it; dungeons and exits never are."""
    from arena.games.age_of_thieves.queries import board, empty_spaces

    spaces = [n.id for n in board().nodes if n.kind.value == "space"][:9]
    state = at(table(), 0, spaces[0])
    state = replace(
        state,
        guards=(spaces[1],),
        captains=(spaces[2],),
        jewels=((spaces[3], "yellow"),),
        tiles=((spaces[4], "T01"),),
        open_tiles=((spaces[5], "manhole"),),
        fire=(spaces[6],),
        smoke=(spaces[7],),
    )
    outside = [n.id for n in board().nodes if n.kind.value != "space"][:2]
    assert empty_spaces(state, [*outside, *reversed(spaces)]) == [spaces[8]]
    assert empty_spaces(table(), [spaces[8], spaces[0]]) == [spaces[8], spaces[0]]
