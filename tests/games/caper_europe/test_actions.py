"""Actions: the stable text form, malformed text, and illegal actions refused with the reason."""

from __future__ import annotations

import pytest

from arena.games.api import (
    GameError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    WrongSeatError,
)
from arena.games.caper_europe import CAPER_EUROPE, Action, ActionKind
from arena.games.caper_europe.rules import apply
from arena.games.caper_europe.scenario import scenario
from arena.games.caper_europe.state import NONE, action_text, parse_action
from tests.games.caper_europe.helpers import play, turn


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (
            Action(ActionKind.THIEF, "smuggler", 2, NONE, NONE, 1),
            "thief smuggler at 2 grab painting",
        ),
        (Action(ActionKind.GEAR, "blazeblaster", 0, 1, 2), "gear blazeblaster at 0/1 burn 2"),
        (
            Action(ActionKind.GEAR, "stealth_suit", 1, 0, NONE, 0),
            "gear stealth_suit at 1/0 grab diamond",
        ),
        (Action(ActionKind.THIEF, "illusionist", 1, NONE, 0), "thief illusionist at 1 burn 0"),
        (Action(ActionKind.DISCARD, "skeleton_key"), "discard skeleton_key"),
        (Action(ActionKind.RETURN, good=2), "return antique"),
    ],
)
def test_the_text_form_round_trips(action: Action, text: str) -> None:
    assert action_text(action) == text == str(action)
    assert parse_action(text) == action


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("fly smuggler at 0", "unknown action"),
        ("", "unknown action"),
        ("thief nobody at 0", "unknown card"),
        ("thief smuggler at x", "location must be a digit"),
        ("thief smuggler at 12", "location must be a digit"),
        ("thief smuggler at", "without a value"),
        ("thief smuggler at 0 grab gold", "unknown stolen good"),
        ("thief smuggler at 0 steal diamond", "unknown or repeated keyword"),
        ("gear blazeblaster burn 0 at 0/0", "canonical form"),
        ("return", "expected 'return <good>'"),
    ],
)
def test_malformed_text_is_an_invalid_action(text: str, reason: str) -> None:
    with pytest.raises(InvalidActionError, match=reason):
        parse_action(text)


def thief_turn() -> object:
    return turn(
        "smuggler",
        crews={
            0: {1: [["mime"], ["dame"], ["tourist"]]},
            1: {0: [["banker", "skeleton_key", "briefcase"]]},
        },
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("discard smuggler", "Thief round: place a Thief"),
        ("thief banker at 0", "banker is not in your hand"),
        ("thief smuggler at 1", "already have 3 Thieves"),
        ("thief smuggler at 0", "the grab is mandatory"),
        ("thief smuggler at 0 burn 0 grab diamond", "smuggler burns nothing"),
        ("return diamond", "no burned token to return"),
    ],
)
def test_illegal_actions_in_a_thief_round_say_why(text: str, reason: str) -> None:
    with pytest.raises(IllegalActionError, match=reason):
        play(thief_turn(), text)  # type: ignore[arg-type]


def gear_turn() -> object:
    crews = {
        0: {0: [["mime", "sound_dish", "sound_dish", "sound_dish"], ["dame"]]},
        1: {0: [["banker", "skeleton_key", "briefcase"]]},
    }
    return turn(
        "blazeblaster",
        crews=crews,
        coins=(2, 3),
        hands=(("blazeblaster", "briefcase", "smuggler"), ("disguise_kit", "disguise_kit")),
        goods=((0, 2, 2), (2, 1, 1), (2, 1, 1)),
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("thief smuggler at 0", "Gear round: play or discard"),
        ("gear briefcase at 0/1", "briefcase costs 3, you have 2"),
        ("gear blazeblaster at 0/0 burn 0", "already carries 3 Gear"),
        ("gear blazeblaster at 0/2 burn 0", "no Thief 2"),
        ("gear blazeblaster at 0/1", "the burn is mandatory: choose the opponent's Thief 0"),
        ("gear blazeblaster at 0/1 burn 1", "no topmost Gear that can burn"),
        ("gear blazeblaster at 0/1 burn 0 grab diamond", "lets you choose no stolen good"),
        ("gear smuggler at 0/1", "smuggler is not a gear"),
    ],
)
def test_illegal_actions_in_a_gear_round_say_why(text: str, reason: str) -> None:
    with pytest.raises(IllegalActionError, match=reason):
        play(gear_turn(), text)  # type: ignore[arg-type]


def test_a_grab_of_a_type_not_there_is_refused() -> None:
    state = turn("smuggler", goods=((0, 2, 2), (2, 1, 1), (2, 1, 1)))
    with pytest.raises(IllegalActionError, match="no diamond beside that location"):
        play(state, "thief smuggler at 0 grab diamond")


def test_the_wrong_seat_and_a_finished_game_are_refused() -> None:
    state = thief_turn()
    with pytest.raises(WrongSeatError, match="seat 0's turn, not seat 1's"):
        apply(state, parse_action("thief smuggler at 2 grab diamond"), seat=1)  # type: ignore[arg-type]
    over = scenario(round=7)
    with pytest.raises(GameOverError):
        apply(over, Action(ActionKind.DISCARD, "skeleton_key"))
    with pytest.raises(InvalidActionError, match="not a Caper: Europe action"):
        apply(over._replace(to_move=0), "discard skeleton_key")


def test_the_game_object_refuses_what_it_cannot_answer() -> None:
    state = CAPER_EUROPE.create({"city": "rome"}, 1)
    with pytest.raises(GameError, match="not over"):
        CAPER_EUROPE.result(state)
    with pytest.raises(GameError, match="seats 0 and 1"):
        CAPER_EUROPE.observation(state, 2)
    with pytest.raises(GameError, match="unknown city 'berlin'"):
        CAPER_EUROPE.create({"city": "berlin"}, 1)
    with pytest.raises(GameError, match="unknown Caper: Europe setting"):
        CAPER_EUROPE.create({"players": 3}, 1)


def test_apply_leaves_its_input_unchanged() -> None:
    state = gear_turn()
    before = repr(state)
    play(state, "gear blazeblaster at 0/1 burn 0")  # type: ignore[arg-type]
    assert repr(state) == before


def test_render_shows_the_board_from_a_seat_or_omniscient() -> None:
    state = gear_turn()
    assert "3 unknown cards" not in CAPER_EUROPE.render(state)  # type: ignore[arg-type]
    seen = CAPER_EUROPE.render(state, 0)  # type: ignore[arg-type]
    assert "2 unknown cards" in seen and "banker < skeleton_key < briefcase" in seen
    assert "marker +0" in seen and "Caper: Europe in Paris" in seen
