"""A seat played by a program bot: the referee asks, the program answers over its stdin and
stdout, and the referee's clock and fault policy judge it as they judge a remote bot."""

from __future__ import annotations

import time
from typing import Any

from arena import codec
from arena.games.api import Game, GameError
from arena.hosted.program import Program, ProgramGone
from arena.referee import messages
from arena.referee.referee import Decision, DecisionRequest, Fault, GameInfo, GameOutcome
from arena.v1 import bot_pb2

SLACK_MS = 50  # the pipe's allowance on top of a deadline, as the remote seat's network one


class ProgramSeat:
    """One seat of a game played by `program`, which may hold several seats (a team) and plays
    every game of the match."""

    def __init__(self, program: Program, name: str, game: Game[Any, Any]) -> None:
        self.name = name
        self.program, self._game = program, game
        self._moves = 0

    def start(self, info: GameInfo) -> None:
        self.program.send(bot_pb2.ConnectResponse(game_started=messages.game_started(info)))

    def decide(self, request: DecisionRequest) -> Decision:
        if self.program.gone is not None:
            return Decision(
                fault=Fault.DISCONNECTED, detail=f"the program is gone: {self.program.gone}"
            )
        self._moves += 1
        request_id = f"{request.game_id}.{request.seat}.{self._moves}"
        deadline_ms = request.move_ms + request.bank_ms
        envelope = bot_pb2.ConnectResponse()
        messages.fill_decision_request(
            envelope.decision_request, self._game, request, request_id, deadline_ms
        )
        end = time.monotonic() + (deadline_ms + SLACK_MS) / 1000
        self.program.send(envelope)
        return self._answer(request, request_id, end)

    def _answer(self, request: DecisionRequest, request_id: str, end: float) -> Decision:
        """The program's answer to `request_id`; answers to other requests (late ones, another
        seat's) are passed over."""
        while True:
            try:
                message = self.program.receive(end)
            except ProgramGone as gone:
                return Decision(fault=Fault.DISCONNECTED, detail=f"the program is gone: {gone}")
            except ValueError as error:
                return Decision(fault=Fault.ILLEGAL, detail=f"not a protocol message: {error}")
            if message is None:
                return Decision(fault=Fault.TIMEOUT)
            kind = message.WhichOneof("message")
            if kind == "resign" and message.resign.game_id == request.game_id:
                return Decision(fault=Fault.RESIGNED)
            if kind == "action_reply" and message.action_reply.request_id == request_id:
                return self._decode(message.action_reply, request)

    def _decode(self, reply: bot_pb2.ActionReply, request: DecisionRequest) -> Decision:
        try:
            return Decision(codec.action_from_reply(self._game, reply, request.legal))
        except (GameError, ValueError) as error:
            return Decision(fault=Fault.ILLEGAL, detail=str(error))

    def finish(self, info: GameInfo, outcome: GameOutcome) -> None:
        self.program.send(bot_pb2.ConnectResponse(game_over=messages.game_over(info, outcome)))


class UnplayableSeat:
    """A seat of a hosted bot that cannot play this match (no version that builds, a runtime
    this machine lacks): every decision asked of it is a disconnection, and says why."""

    def __init__(self, name: str, why: str) -> None:
        self.name, self.why = name, why

    def start(self, info: GameInfo) -> None:
        pass

    def decide(self, request: DecisionRequest) -> Decision:
        return Decision(fault=Fault.DISCONNECTED, detail=f"the program cannot play: {self.why}")

    def finish(self, info: GameInfo, outcome: GameOutcome) -> None:
        pass
