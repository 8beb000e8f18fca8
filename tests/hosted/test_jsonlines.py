"""The arena's own JSON writer and reader give what protobuf's `json_format` gives, over every
message of real games of every game."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from google.protobuf import json_format

from arena.bots import make_bot
from arena.games import GAMES, base_config
from arena.hosted.jsonlines import decode_request, encode, to_json_object
from arena.referee import messages
from arena.referee.referee import (
    BuiltinSeat,
    Decision,
    DecisionRequest,
    GameInfo,
    GameOutcome,
    Seat,
    referee_game,
)
from arena.v1 import bot_pb2, game_pb2
from tests.hosted.programs import TEST_POLICY


@dataclass
class RecordingSeat:
    """A random bot that also writes every message a program in its seat would be sent."""

    inner: BuiltinSeat
    game: Any
    name: str = "recorder"
    sent: list[bot_pb2.ConnectResponse] = field(default_factory=list)

    def start(self, info: GameInfo) -> None:
        self.sent.append(bot_pb2.ConnectResponse(game_started=messages.game_started(info)))
        self.inner.start(info)

    def decide(self, request: DecisionRequest) -> Decision:
        envelope = bot_pb2.ConnectResponse()
        messages.fill_decision_request(envelope.decision_request, self.game, request, "r", 1000)
        self.sent.append(envelope)
        return self.inner.decide(request)

    def finish(self, info: GameInfo, outcome: GameOutcome) -> None:
        self.sent.append(bot_pb2.ConnectResponse(game_over=messages.game_over(info, outcome)))
        self.inner.finish(info, outcome)


def _game_messages(game_id: str) -> list[bot_pb2.ConnectResponse]:
    game = GAMES[game_id]
    players = 3 if game_id == "age-of-thieves" else 2
    config = base_config(game_id, None, players)
    recorder = RecordingSeat(BuiltinSeat(make_bot("random"), game, 7, 0), game)
    seats: list[Seat] = [recorder]
    seats += [BuiltinSeat(make_bot("random"), game, 7, seat) for seat in range(1, players)]
    referee_game(
        game, config, 7, seats, TEST_POLICY, game_id=f"{game_id}-7", timer=time.perf_counter
    )
    return recorder.sent


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_message_of_a_game_is_written_as_json_format_writes_it(game_id: str) -> None:
    sent = _game_messages(game_id)
    assert {m.WhichOneof("message") for m in sent} == {
        "game_started",
        "decision_request",
        "game_over",
    }
    for message in sent:
        expected = json_format.MessageToDict(message)
        assert to_json_object(message) == expected
        assert json.loads(encode(message)) == expected


def test_int64_values_in_a_map_follow_json_format() -> None:
    started = bot_pb2.GameStarted(
        config={"seed": game_pb2.ConfigValue(number=2**40), "city": game_pb2.ConfigValue(text="x")}
    )
    message = bot_pb2.ConnectResponse(game_started=started)
    assert to_json_object(message) == json_format.MessageToDict(message)
    assert to_json_object(message)["gameStarted"]["config"]["seed"] == {"number": str(2**40)}


@pytest.mark.parametrize(
    "line",
    [
        b'{"actionReply":{"requestId":"g.0.1","legalIndex":3}}',
        b'{"actionReply":{"requestId":"g.0.1","legalIndex":0}}',
        b'{"actionReply":{"requestId":"g.0.1"}}',
        b'{"actionReply":{"requestId":"g.0.1","legalIndex":3.0}}',
        b'{"actionReply":{"requestId":"g.0.1","legalIndex":"3"}}',
        b'{"hello":{"protocolVersion":1,"games":["caper"]}}',
        b'{"resign":{"gameId":"g"}}',
    ],
)
def test_lines_a_program_sends_are_read_as_json_format_reads_them(line: bytes) -> None:
    assert decode_request(line) == json_format.Parse(line, bot_pb2.ConnectRequest())


@pytest.mark.parametrize(
    "line",
    [
        b"{not json",
        b'{"actionReply":{"requestId":"a","legalIndex":-1}}',
        b'{"actionReply":{"requestId":"a","legalIndex":4294967296}}',
        b'{"actionReply":{"requestId":"a","legalIndex":true}}',
        b'{"actionReply":{"requestId":"a","legalIndex":1,"legalIndex":2}}',
        b'{"actionReply":{"requestId":7,"legalIndex":1}}',
        b'{"noSuchMessage":{}}',
        b"[1, 2]",
    ],
)
def test_lines_json_format_refuses_are_refused(line: bytes) -> None:
    with pytest.raises(json_format.ParseError):
        json_format.Parse(line, bot_pb2.ConnectRequest())
    with pytest.raises(ValueError):
        decode_request(line)
