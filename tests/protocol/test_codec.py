"""The engine ⇄ wire codec: exact round trips over random games, and clear errors for bad input."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from google.protobuf.message import DecodeError

from arena import codec
from arena.games import GAMES
from arena.games.api import InvalidActionError, Result
from arena.games.caper import CAPER, Action, ActionKind, State
from arena.referee.referee import Termination
from arena.v1 import bot_pb2, caper_pb2, game_pb2

CITIES = ("paris", "rome", "london")
SEEDS = range(5)
PLAYERS = (2, 3, 4)  # section 12: the Snitch game and teams


def _random_game(city: str, seed: int, players: int = 2) -> Iterator[State]:
    """Every state of one random playout, the final one included."""
    rng = random.Random(seed)
    state = CAPER.create({"city": city, "players": players}, seed)
    yield state
    while not CAPER.is_terminal(state):
        state = CAPER.apply(state, rng.choice(CAPER.legal_actions(state)))
        yield state


def _final_state(city: str = "rome", seed: int = 0) -> State:
    *_, final = _random_game(city, seed)
    return final


def _wire(message: Any) -> Any:
    """`message` after a trip through bytes, as the other end of a stream receives it."""
    return type(message).FromString(message.SerializeToString())


def _caper_action(**fields: Any) -> game_pb2.Action:
    return game_pb2.Action(caper=caper_pb2.CaperAction(**fields))


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("city", CITIES)
@pytest.mark.parametrize("seed", SEEDS)
def test_observation_round_trips_exactly_at_every_state(city: str, seed: int, players: int) -> None:
    for state in _random_game(city, seed, players):
        for seat in range(CAPER.seat_count(state)):
            obs = CAPER.observation(state, seat)
            assert codec.observation_from_proto(_wire(codec.observation_to_proto(obs))) == obs


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("city", CITIES)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_legal_action_round_trips_in_both_forms(city: str, seed: int, players: int) -> None:
    for state in _random_game(city, seed, players):
        legal = CAPER.legal_actions(state)
        for action, wire in zip(legal, codec.legal_actions_to_proto(CAPER, legal), strict=True):
            wire = _wire(wire)
            assert codec.action_from_proto(CAPER, wire.action) == action
            assert CAPER.parse_action(wire.text) == action


def test_opponent_hand_is_absent_before_the_first_swap() -> None:
    obs = codec.observation_to_proto(CAPER.observation(CAPER.create({}, 7), 0))
    assert not obs.caper.HasField("opponent_hand")
    assert obs.caper.opponent_hand_size > 0


def test_opponent_hand_is_present_once_known() -> None:
    states = _random_game("paris", 1)
    known = next(s for s in states if CAPER.observation(s, 0).opponent_hand is not None)
    obs = _wire(codec.observation_to_proto(CAPER.observation(known, 0)))
    assert obs.caper.HasField("opponent_hand")


def test_to_move_is_absent_once_the_game_is_over() -> None:
    obs = codec.observation_to_proto(CAPER.observation(_final_state(), 1))
    assert not obs.caper.HasField("to_move")
    assert obs.caper.round_kind == caper_pb2.CAPER_ROUND_KIND_END


def test_random_games_reach_flips_pending_abilities_and_every_action_kind() -> None:
    """The round trips above are only as good as the states they see: make sure they see these."""
    flipped = pending = 0
    kinds: set[ActionKind] = set()
    for city, players in zip(CITIES * 3, sorted(PLAYERS * 3), strict=True):
        for state in _random_game(city, 1, players):
            caper = codec.observation_to_proto(CAPER.observation(state, 0)).caper
            cards = [c for side in caper.sides for crew in side.crews for s in crew.stacks for c in s.cards]  # fmt: skip
            flipped += any(card.flipped for card in cards)
            pending += len(caper.pending) > 0  # only Rome has end-of-game abilities (R7)
            kinds |= {action.kind for action in CAPER.legal_actions(state)}
    assert flipped > 0
    assert pending > 0
    assert kinds == set(ActionKind)


MALFORMED = [
    ({}, "kind is CAPER_ACTION_KIND_UNSPECIFIED"),
    ({"kind": 99, "card": "The Dame", "location": 0}, "kind is 99 \\(unknown\\)"),
    (
        {"kind": caper_pb2.CAPER_ACTION_KIND_THIEF, "card": "The Dame"},
        "THIEF action is missing location",
    ),
    ({"kind": caper_pb2.CAPER_ACTION_KIND_THIEF, "location": 1}, "THIEF action is missing card"),
    (
        {"kind": caper_pb2.CAPER_ACTION_KIND_GEAR, "card": "Blazeblaster", "location": 0},
        "GEAR action is missing thief",
    ),
    (
        {"kind": caper_pb2.CAPER_ACTION_KIND_THIEF, "card": "The Dame", "location": 0, "thief": 1},
        "THIEF action takes no thief",
    ),
    (
        {"kind": caper_pb2.CAPER_ACTION_KIND_DISCARD, "card": "Blazeblaster", "target": 0},
        "DISCARD action takes no target",
    ),
    ({"kind": caper_pb2.CAPER_ACTION_KIND_PASS, "card": "The Dame"}, "PASS action takes no card"),
    ({"kind": caper_pb2.CAPER_ACTION_KIND_PASS, "location": 0}, "PASS action takes no location"),
    (
        {"kind": caper_pb2.CAPER_ACTION_KIND_DISCARD, "card": "The Dame Edna"},
        "unknown card 'The Dame Edna'",
    ),
]


@pytest.mark.parametrize(("fields", "message"), MALFORMED)
def test_action_from_proto_rejects_malformed_action(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidActionError, match=message):
        codec.action_from_proto(CAPER, _caper_action(**fields))


def test_action_from_proto_rejects_action_with_no_game() -> None:
    with pytest.raises(
        InvalidActionError, match=r"needs Action\.caper, got an Action with no game"
    ):
        codec.action_from_proto(CAPER, game_pb2.Action())


def test_action_from_proto_leaves_legality_to_the_engine() -> None:
    """Well formed but illegal: the codec converts it, `apply` says why it is not allowed."""
    wire = _caper_action(kind=caper_pb2.CAPER_ACTION_KIND_PASS)
    assert codec.action_from_proto(CAPER, wire) == Action(ActionKind.PASS)


def test_action_from_reply_takes_an_index_or_an_action() -> None:
    legal = CAPER.legal_actions(CAPER.create({}, 2))
    by_index = bot_pb2.ActionReply(request_id="r1", legal_index=0)
    by_action = bot_pb2.ActionReply(request_id="r1", action=codec.action_to_proto(CAPER, legal[-1]))
    assert codec.action_from_reply(CAPER, _wire(by_index), legal) == legal[0]
    assert codec.action_from_reply(CAPER, _wire(by_action), legal) == legal[-1]


def test_action_from_reply_rejects_index_out_of_range() -> None:
    legal = CAPER.legal_actions(CAPER.create({}, 2))
    reply = bot_pb2.ActionReply(request_id="r1", legal_index=len(legal))
    with pytest.raises(InvalidActionError, match=f"out of range: there are {len(legal)}"):
        codec.action_from_reply(CAPER, reply, legal)


def test_action_from_reply_rejects_a_reply_choosing_nothing() -> None:
    with pytest.raises(InvalidActionError, match="chooses nothing"):
        codec.action_from_reply(CAPER, bot_pb2.ActionReply(request_id="r1"), [])


@pytest.mark.parametrize("termination", sorted(codec.TERMINATIONS))
def test_result_round_trips_with_its_termination(termination: str) -> None:
    result = CAPER.result(_final_state())
    wire = _wire(codec.result_to_proto(result, termination))
    assert codec.result_from_proto(wire) == (result, termination)


def test_wire_terminations_are_the_referees() -> None:
    assert set(codec.TERMINATIONS) == {t.value for t in Termination}


def test_result_without_winner_has_no_winner_field() -> None:
    draw = Result(scores=(3, 3), winner=None, breakdown=({"a": 3}, {"a": 3}))
    wire = codec.result_to_proto(draw)
    assert not wire.HasField("winner")
    assert codec.result_from_proto(wire) == (draw, "normal")


def test_result_to_proto_rejects_unknown_termination() -> None:
    with pytest.raises(codec.CodecError, match="unknown termination 'forfeit'"):
        codec.result_to_proto(CAPER.result(_final_state()), "forfeit")


@pytest.mark.parametrize(
    ("details", "message"), [("[1]", "must hold a JSON object"), ("{", "not valid JSON")]
)
def test_result_from_proto_rejects_bad_details(details: str, message: str) -> None:
    wire = codec.result_to_proto(CAPER.result(_final_state()))
    wire.details_json = details
    with pytest.raises(codec.CodecError, match=message):
        codec.result_from_proto(wire)


def test_config_round_trips_text_and_numbers() -> None:
    config: dict[str, str | int] = {"city": "paris", "players": 2}
    wire = _wire(bot_pb2.GameStarted(config=codec.config_to_proto(config)))
    assert codec.config_from_proto(wire.config) == config


def test_config_from_proto_rejects_value_with_neither_form() -> None:
    with pytest.raises(codec.CodecError, match="config 'city' has no value"):
        codec.config_from_proto({"city": game_pb2.ConfigValue()})


def test_observation_from_proto_rejects_observation_with_no_game() -> None:
    with pytest.raises(codec.CodecError, match="names no game"):
        codec.observation_from_proto(game_pb2.Observation())


def test_observation_from_proto_rejects_wrong_number_of_sides() -> None:
    wire = codec.observation_to_proto(CAPER.observation(CAPER.create({}, 1), 0))
    wire.caper.sides.add()
    with pytest.raises(codec.CodecError, match="has 2 sides, this one has 3"):
        codec.observation_from_proto(wire)


def test_every_registered_game_has_a_wire_form() -> None:
    for game in GAMES.values():
        state = game.create({}, 0)
        obs = game.observation(state, 0)
        assert codec.observation_from_proto(codec.observation_to_proto(obs)) == obs
        action = game.legal_actions(state)[0]
        assert codec.action_from_proto(game, codec.action_to_proto(game, action)) == action


GARBAGE = [
    pytest.param(b"\xff\xff\xff\xff\xff", id="invalid-tag"),
    pytest.param(b"\x0a\x80\x80\x80\x80\x04" + b"x" * 16, id="length-beyond-the-buffer"),
    pytest.param(b"\x12\x03\x0a\x01", id="truncated-submessage"),
    pytest.param(b"\x12\x04\x0a\x02\xc3\x28", id="invalid-utf8-in-a-string"),
]


@pytest.mark.parametrize("data", GARBAGE)
def test_garbage_bytes_do_not_parse(data: bytes) -> None:
    """The gateway relies on this: a bad frame is a DecodeError, never a half-read message."""
    with pytest.raises(DecodeError):
        bot_pb2.ConnectRequest.FromString(data)


def test_protocol_version_is_one() -> None:
    assert codec.PROTOCOL_VERSION == 1
