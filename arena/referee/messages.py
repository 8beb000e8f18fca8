"""The protocol's messages about a game, built once for every kind of seat that speaks the
protocol: a remote bot (protobuf over the gateway) and a program bot (the same messages in
protobuf's JSON mapping over its stdin)."""

from __future__ import annotations

from typing import Any

from arena import codec
from arena.games.api import Game
from arena.referee.referee import DecisionRequest, GameInfo, GameOutcome
from arena.v1 import bot_pb2


def game_started(info: GameInfo) -> bot_pb2.GameStarted:
    return bot_pb2.GameStarted(
        game_id=info.game_id,
        seat=info.seat,
        game=info.game,
        rules_version=info.rules_version,
        config=codec.config_to_proto(info.config),
        opponent_name=info.opponent,
        time_control=bot_pb2.TimeControl(
            move_ms=info.policy.move_ms,
            bank_ms=info.policy.bank_ms,
            max_strikes=info.policy.max_strikes,
        ),
        seats=[
            bot_pb2.GameSeat(player_name=seat.name, role=seat.role, team=seat.team)
            for seat in info.seats
        ],
    )


def fill_decision_request(
    message: bot_pb2.DecisionRequest,
    game: Game[Any, Any],
    request: DecisionRequest,
    request_id: str,
    deadline_ms: int,
) -> None:
    """Fill `message` in place: one built first and then copied into its envelope would be
    copied whole once more."""
    message.request_id, message.game_id = request_id, request.game_id
    message.seat = request.seat
    message.deadline_ms, message.bank_ms = deadline_ms, request.bank_ms
    message.strikes, message.move_number = request.strikes, request.move_number
    message.observation.CopyFrom(codec.observation_to_proto(request.observation))
    message.legal_actions.extend(codec.legal_actions_to_proto(game, request.legal))


def game_over(info: GameInfo, outcome: GameOutcome) -> bot_pb2.GameOver:
    return bot_pb2.GameOver(
        game_id=info.game_id,
        result=codec.result_to_proto(outcome.result, outcome.termination.value),
        seat=info.seat,
        reason=outcome.reason,
    )
