"""Arena messages built from real engine games, as the gateway builds them."""

from __future__ import annotations

import random
from typing import Any

from arena import codec
from arena.games.api import Game, Result
from arena.games.caper import CAPER
from arena.v1 import bot_pb2


def midgame_state(
    seed: int = 3, moves: int = 7, city: str = "rome", game: Game[Any, Any] = CAPER
) -> Any:
    """A state of `game` some random moves into a game."""
    rng = random.Random(seed)
    state = game.create({"city": city}, seed)
    for _ in range(moves):
        state = game.apply(state, rng.choice(game.legal_actions(state)))
    return state


def decision(
    state: Any, request_id: str = "g1.1", game_id: str = "g1", game: Game[Any, Any] = CAPER
) -> bot_pb2.ConnectResponse:
    seat = game.current_player(state)
    assert seat is not None
    request = bot_pb2.DecisionRequest(
        request_id=request_id,
        game_id=game_id,
        seat=seat,
        observation=codec.observation_to_proto(game.observation(state, seat)),
        legal_actions=codec.legal_actions_to_proto(game, game.legal_actions(state)),
        deadline_ms=1000,
        bank_ms=500,
        strikes=1,
        move_number=7,
    )
    return wire(bot_pb2.ConnectResponse(decision_request=request))


def game_started(
    game_id: str = "g1", seat: int = 0, game: Game[Any, Any] = CAPER
) -> bot_pb2.ConnectResponse:
    started = bot_pb2.GameStarted(
        game_id=game_id,
        seat=seat,
        game=game.id,
        rules_version=game.rules_version,
        config=codec.config_to_proto({"city": "rome"}),
        opponent_name="greedy",
        time_control=bot_pb2.TimeControl(move_ms=1000, bank_ms=10_000, max_strikes=3),
    )
    return wire(bot_pb2.ConnectResponse(game_started=started))


def game_over(
    game_id: str = "g1", seat: int = 0, winner: int = 0, result: Result | None = None
) -> bot_pb2.ConnectResponse:
    result = result or Result((30, 20), winner, ({"thieves": 30}, {"thieves": 20}))
    over = bot_pb2.GameOver(
        game_id=game_id, result=codec.result_to_proto(result), seat=seat, reason=""
    )
    return wire(bot_pb2.ConnectResponse(game_over=over))


def welcome(bot_id: str = "b1") -> bot_pb2.ConnectResponse:
    return bot_pb2.ConnectResponse(
        welcome=bot_pb2.Welcome(
            bot_id=bot_id,
            bot_name="first",
            server_version="test",
            protocol_version=codec.PROTOCOL_VERSION,
        )
    )


def wire(message: bot_pb2.ConnectResponse) -> bot_pb2.ConnectResponse:
    """`message` after a trip through bytes, as the bot receives it."""
    return bot_pb2.ConnectResponse.FromString(message.SerializeToString())
