"""Events of spec 22.3 in the engine: each one's effect on a small scenario (C01-C12 calm,
A01-A11 alarm), and the face-down city tiles kept out of every observation (22.7)."""

from __future__ import annotations

import json

from arena.games.age_of_thieves.queries import hidden
from arena.games.age_of_thieves.state import Status, Task, replace
from tests.games.age_of_thieves.helpers import GAME, answer, options, scenario
from tests.games.age_of_thieves.test_engine_rules import at, table


def test_c02_no_star_in_the_sky_hides_every_thief() -> None:
    state = at(table(event="C02"), 0, "N82")
    assert hidden(state, 0) and not hidden(at(table(), 0, "N82"), 0)


def test_a07_sniffer_dogs_switch_off_hideouts() -> None:
    assert hidden(at(table(), 0, "N61"), 0)  # a hideout
    assert not hidden(at(table(event="A07"), 0, "N61"), 0)


def test_c03_c04_c06_a01_change_attention_and_movement() -> None:
    from arena.games.age_of_thieves.queries import attention, movement

    assert attention(table(event="C03"), captain=True) == 4
    assert attention(table(event="C04"), captain=False) == 5
    assert movement(table(event="C06"), captain=False) == 2
    assert movement(table(event="A01"), captain=True) == 5


def test_c09_c10_a09_guard_dice() -> None:
    """5(c), C09 / C10 / A09: two dice keep the higher or the lower; A09 one die under alarm."""
    for event, status in (("C09", Status.CALM), ("C10", Status.CALM), ("A09", Status.ALARM)):
        state = scenario(table(event=event, status=status, die=0), Task("die"))
        assert 1 <= state.die <= 8
        draws = dict(state.streams.used)["dice.guard"] - dict(table().streams.used).get(
            "dice.guard", 0
        )
        assert draws == (1 if event == "A09" else 2)


def test_c11_generous_merchant_places_two_yellow_jewels() -> None:
    state = at(at(table(event="C11"), 0, "N82"), 1, "N32")
    state = scenario(state, Task("jewel"))
    first = options(state)[0]
    state = answer(state, first)
    assert state.prompt is not None and state.prompt.name == "jewel"
    state = answer(state, options(state)[0])
    assert sum(1 for _, kind in state.jewels if kind == "yellow") == 2
    assert state.yellow_supply == 8


def test_a03_roadblocks_shorten_every_movement() -> None:
    from arena.games.age_of_thieves.movement import movement

    state = movement(replace(at(table(event="A03"), 0, "N82"), tasks=()), 0, 4)
    assert state.tasks[0] == Task("move", 0, "", 3)


def test_a08_secret_passage_makes_exits_entrances() -> None:
    state = scenario(at(table(event="A08"), 0, "N40"), Task("move", 0, "", 4))
    assert "sewer E40" in options(state)
    plain = scenario(at(table(), 0, "N40"), Task("move", 0, "", 4))
    assert not [o for o in options(plain) if o.startswith("sewer")]


def test_c05_reinforcements_the_first_player_picks_a_free_guardhouse() -> None:
    """C05 (compass N): a guard from the supply on a free guardhouse of the north."""
    state = scenario(replace(table(calm=("C05",)), first=1), Task("event"))
    assert state.prompt is not None and state.prompt.seat == 1
    assert all(o.startswith("space N") for o in options(state))
    state = answer(state, "space N71")
    assert state.guards == ("N71",) and state.guard_supply == 19


def test_a02_gate_reinforcements_fill_the_free_guard_alarm_spaces() -> None:
    state = scenario(table(alarm=("A02",), status=Status.ALARM, escape="E"), Task("event"))
    assert state.guards == ("E70", "E74")


def test_a05_bounty_marks_the_jewel_holder() -> None:
    state = at(table(alarm=("A05",), status=Status.ALARM, escape="E"), 0, "N82", ej=True)
    state = scenario(state, Task("event"))
    assert state.thief(0).marker and not state.thief(1).marker


def test_a10_riot_sends_idle_guards_towards_the_exits() -> None:
    state = table(alarm=("A10",), status=Status.ALARM, escape="N", guards=("N62",))
    state = scenario(at(at(state, 0, "S82"), 1, "S83"), Task("event"))
    assert state.guards != ("N62",)


def test_c07_market_day_and_c08_guild_tax_act_at_once() -> None:
    """C07, C08 "Sofort": the draws and discards happen in the event phase, before anything else
    queued (they ran after the planning before)."""
    state = scenario(table(calm=("C07",)).with_thief(0, hand=()), Task("event"))
    assert len(state.thief(0).hand) == 1
    state = scenario(table(calm=("C08",)).with_thief(0, hand=("G10",)), Task("event"))
    assert state.thief(0).hand == () and "G10" in state.discard


def test_face_down_tiles_never_show_in_an_observation() -> None:
    """22.7: the identity of a face-down tile is in no seat's view, its space is."""
    state = table(tiles=(("N71", "plain_guard"),))
    for seat in (0, 1):
        text = json.dumps(GAME.observation(state, seat).to_json())
        assert "plain_guard" not in text and "N71" in text
