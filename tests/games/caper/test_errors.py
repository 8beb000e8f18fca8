"""Bad input: every mistake gets a typed error whose message says what was wrong."""

from __future__ import annotations

import pytest

from arena.games import get_game
from arena.games.api import (
    ConfigError,
    GameError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    WrongSeatError,
)
from arena.games.caper import CAPER, Action, ActionKind
from arena.games.caper.state import action_text, parse_action


def test_unknown_city_is_a_config_error_listing_the_cities() -> None:
    with pytest.raises(
        ConfigError, match="unknown city 'berlin': choose one of paris, rome, london"
    ):
        CAPER.create({"city": "berlin"}, 1)


def test_unknown_setting_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown Caper setting"):
        CAPER.create({"city": "rome", "seats": 3}, 1)


def test_unknown_game_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown game 'chess'"):
        get_game("chess")


def test_action_for_the_wrong_seat_is_refused() -> None:
    state = CAPER.create({}, 1)
    action = CAPER.legal_actions(state)[0]
    with pytest.raises(WrongSeatError, match="it is seat 0's turn, not seat 1's"):
        CAPER.apply(state, action, seat=1)
    assert CAPER.apply(state, action, seat=0) != state


def test_action_after_the_game_ended_is_refused() -> None:
    state = CAPER.create({"city": "london"}, 4)
    while not CAPER.is_terminal(state):
        state = CAPER.apply(state, CAPER.legal_actions(state)[-1])
    assert CAPER.legal_actions(state) == []
    assert CAPER.current_player(state) is None
    with pytest.raises(GameOverError, match="the game is over"):
        CAPER.apply(state, Action(ActionKind.PASS))


def test_result_before_the_end_is_refused() -> None:
    with pytest.raises(GameError, match="not over yet"):
        CAPER.result(CAPER.create({}, 1))


def test_card_not_in_hand_is_named() -> None:
    state = CAPER.create({"city": "paris"}, 1)
    absent = next(name for name in ("The Don", "The Royal") if name)  # other cities' Thieves
    with pytest.raises(
        IllegalActionError, match=f"thief {absent} at 0: {absent} is not in your hand"
    ):
        CAPER.apply(state, Action(ActionKind.THIEF, absent, 0))


def test_changing_the_listed_actions_cannot_smuggle_in_an_illegal_one() -> None:
    state = CAPER.create({"city": "paris"}, 1)
    listed = CAPER.legal_actions(state)
    smuggled = Action(ActionKind.THIEF, "The Royal", 0)
    listed.append(smuggled)  # type: ignore[attr-defined]
    with pytest.raises(IllegalActionError, match="not in your hand"):
        CAPER.apply(state, smuggled)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Action(ActionKind.THIEF, "{card}", 3), "location must be 0, 1 or 2, not 3"),
        (Action(ActionKind.THIEF, "{card}", 0, 1), "takes no thief"),
        (Action(ActionKind.PASS), "no end-of-game ability to resolve"),
        (Action(ActionKind.THIEF, "", 0), "names no card"),
    ],
)
def test_malformed_actions_name_their_fault(action: Action, message: str) -> None:
    state = CAPER.create({"city": "paris"}, 1)
    action = action._replace(card=action.card.format(card=state.hands[0][0].name))
    with pytest.raises(IllegalActionError, match=message):
        CAPER.apply(state, action)


def test_something_that_is_not_an_action_is_invalid() -> None:
    state = CAPER.create({}, 1)
    with pytest.raises(InvalidActionError, match="not a Caper action"):
        CAPER.apply(state, "thief The Dame at 0")  # type: ignore[arg-type]
    with pytest.raises(InvalidActionError):
        CAPER.apply(state, (0, "The Dame", 0, -1, -1))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        "thief The Dame at 0",
        "thief The Illusionist at 2 flip 1",
        "gear Blazeblaster at 0/1 flip 2",
        "gear Plans Cachés at 1/0",
        "discard Skeleton Key",
        "replay Velocé Wheels at 2/2",
        "pass",
    ],
)
def test_action_text_round_trips(text: str) -> None:
    assert action_text(parse_action(text)) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("steal The Dame", "unknown action 'steal'"),
        ("thief The Queen at 0", "unknown card 'The Queen'"),
        ("gear Skeleton Key at x/0", "location must be a small number"),
        ("gear Skeleton Key at 0/999", "thief must be a small number"),
        ("pass now", "'pass' takes nothing more"),
        ("", "unknown action ''"),
    ],
)
def test_malformed_action_text_is_invalid(text: str, message: str) -> None:
    with pytest.raises(InvalidActionError, match=message):
        parse_action(text)


def test_every_error_is_a_value_error_for_callers_that_catch_broadly() -> None:
    assert issubclass(GameError, ValueError)
    assert issubclass(WrongSeatError, IllegalActionError)
    assert issubclass(GameOverError, IllegalActionError)
