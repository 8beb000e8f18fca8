"""A seat played by a remote bot: decision requests go out through the Redis relay to whichever
gateway holds the bot's stream, and the answer comes back the same way."""

from __future__ import annotations

import time
from typing import Any

from google.protobuf.message import DecodeError

from arena import codec
from arena.games.api import Game, GameError
from arena.referee import messages
from arena.referee.referee import Decision, DecisionRequest, Fault, GameInfo, GameOutcome
from arena.store.relay import Presence, RunnerRelay
from arena.v1 import bot_pb2

POLL_S = 0.5  # how often a waiting runner checks that the bot is still connected
SLACK_MS = 50  # network allowance on top of a deadline, so a bot answering on time is not cut off


class GatewayLostError(RuntimeError):
    """The gateway holding a bot's stream vanished (died, or lost Redis) for longer than the
    grace period, or was gone when the bot's deadline passed: an infrastructure fault, so the
    game is void and replayed, never scored."""


class RemoteSeat:
    def __init__(self, relay: RunnerRelay, bot_id: str, name: str, game: Game[Any, Any]) -> None:
        self.name = name
        self.bot_id = bot_id
        self._relay, self._game = relay, game
        self._grace_ms = 0
        self._moves = 0

    def start(self, info: GameInfo) -> None:
        self._grace_ms = info.policy.grace_ms
        self._relay.join_game(self.bot_id, info.game_id)
        started = messages.game_started(info)
        self._relay.notify(self.bot_id, _message(game_started=started))

    def decide(self, request: DecisionRequest) -> Decision:
        self._moves += 1
        # Unique in the game even when one bot holds several seats of it (a team, V11): a late
        # reply to one seat's request must never answer another seat's.
        request_id = f"{request.game_id}.{request.seat}.{self._moves}"
        deadline_ms = request.move_ms + request.bank_ms
        ttl_s = int((deadline_ms + self._grace_ms) / 1000) + 60
        payload = self._request(request, request_id, deadline_ms)
        try:
            got = self._wait(request.game_id, request_id, deadline_ms, (payload, ttl_s))
        except GatewayLostError:
            self._relay.withdraw(self.bot_id, request_id, late=True)
            raise
        if isinstance(got, bytes):
            return self._decode(got, request)  # a reply settles its request in the relay
        self._relay.withdraw(self.bot_id, request_id, late=got is None)
        return got if got is not None else Decision(fault=Fault.TIMEOUT)

    def _request(self, request: DecisionRequest, request_id: str, deadline_ms: int) -> bytes:
        """The serialized ConnectResponse, filled in place: a DecisionRequest built first and
        then wrapped would be copied whole once more (about a sixth of the encoding's cost)."""
        envelope = bot_pb2.ConnectResponse()
        messages.fill_decision_request(
            envelope.decision_request, self._game, request, request_id, deadline_ms
        )
        return envelope.SerializeToString()

    def _wait(
        self, game_id: str, request_id: str, deadline_ms: int, sent: tuple[bytes, int]
    ) -> bytes | Decision | None:
        """Send the request (`sent`: its message and time to live), then the reply's bytes, a
        fault decision (resigned, gone too long), or None on timeout."""
        end = time.monotonic() + (deadline_ms + SLACK_MS) / 1000
        # The request and the first wait go in one round trip.
        first_s = min((deadline_ms + SLACK_MS) / 1000, POLL_S)
        asked = self._relay.ask(self.bot_id, game_id, request_id, *sent, first_s)
        got = asked.got
        offline_since: float | None = None
        while got is None:
            presence = self._relay.presence(self.bot_id)
            if presence is Presence.ONLINE:
                offline_since = None
            else:
                offline_since = offline_since or time.monotonic()
                if (time.monotonic() - offline_since) * 1000 > self._grace_ms:
                    return self._gone_too_long(game_id, presence)
            if (left := end - time.monotonic()) <= 0:
                self._check_gateway_lives(game_id, asked.holder)
                return None
            got = self._relay.wait_reply(self.bot_id, game_id, request_id, min(left, POLL_S))
        kind, payload = got
        return payload if kind == "reply" else Decision(fault=Fault.RESIGNED)

    def _check_gateway_lives(self, game_id: str, holder: str | None) -> None:
        """Before a missed deadline is charged to the bot: the gateway that held its stream when
        asked must live on after it, since a decision lost with its gateway is the arena's."""
        if holder is not None and not self._relay.gateway_lives(holder):
            raise GatewayLostError(
                f"the gateway holding {self.name}'s stream was gone when its deadline passed: "
                f"game {game_id} is void"
            )

    def _gone_too_long(self, game_id: str, presence: Presence) -> Decision:
        if presence is Presence.GATEWAY_LOST:
            raise GatewayLostError(
                f"the gateway holding {self.name}'s stream stopped answering for longer "
                f"than the grace period ({self._grace_ms} ms): game {game_id} is void"
            )
        return Decision(fault=Fault.DISCONNECTED, detail="longer than the grace period")

    def _decode(self, payload: bytes, request: DecisionRequest) -> Decision:
        reply = bot_pb2.ActionReply()
        try:
            reply.ParseFromString(payload)
            return Decision(codec.action_from_reply(self._game, reply, request.legal))
        except (GameError, ValueError, DecodeError) as error:
            return Decision(fault=Fault.ILLEGAL, detail=str(error))

    def finish(self, info: GameInfo, outcome: GameOutcome) -> None:
        over = messages.game_over(info, outcome)
        self._relay.notify(self.bot_id, _message(game_over=over))
        self._relay.leave_game(self.bot_id, info.game_id)

    def abandon(self, game_id: str) -> None:
        """The game ended without an outcome (void): the bot is no longer in it."""
        self._relay.leave_game(self.bot_id, game_id)


def _message(**field: Any) -> bytes:
    return bot_pb2.ConnectResponse(**field).SerializeToString()
