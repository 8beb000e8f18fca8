"""What a remote seat sends for a decision: every field of the request, in one ConnectResponse."""

from __future__ import annotations

import random
from typing import Any

from arena import codec
from arena.games import get_game
from arena.play.remote import RemoteSeat
from arena.referee.referee import DecisionRequest
from arena.store.relay import Asked, RunnerRelay
from arena.v1 import bot_pb2


class _Asked(RunnerRelay):
    """Keeps what `ask` was given and answers with the first legal action."""

    def __init__(self, reply: bytes) -> None:
        self.sent: list[bytes] = []
        self._reply = reply

    def ask(self, *args: Any, **kwargs: Any) -> Asked:
        self.sent.append(args[3])
        return Asked(("reply", self._reply), None)


def test_the_request_carries_the_view_the_legal_actions_and_the_clock() -> None:
    game, rng = get_game("caper"), random.Random(7)
    state = game.create({"city": "paris"}, 7)
    for _ in range(15):
        state = game.apply(state, rng.choice(game.legal_actions(state)))
    seat, legal = game.current_player(state), game.legal_actions(state)
    assert seat is not None  # the game is not over
    view = game.observation(state, seat)
    request = DecisionRequest("g1", seat, legal, 900, 4000, 1, 15, lambda: view)
    first = bot_pb2.ActionReply(
        request_id=f"g1.{seat}.1", action=codec.action_to_proto(game, legal[0])
    )
    relay = _Asked(first.SerializeToString())

    decision = RemoteSeat(relay, "b1", "bot", game).decide(request)

    assert decision.action == legal[0]
    sent = bot_pb2.ConnectResponse.FromString(relay.sent[0])
    expected = bot_pb2.DecisionRequest(
        request_id=f"g1.{seat}.1",
        game_id="g1",
        seat=seat,
        observation=codec.observation_to_proto(view),
        legal_actions=codec.legal_actions_to_proto(game, legal),
        deadline_ms=4900,
        bank_ms=4000,
        strikes=1,
        move_number=15,
    )
    assert sent == bot_pb2.ConnectResponse(decision_request=expected)
