"""A bot speaking the raw protocol (no SDK), for testing the gateway message by message."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import grpc

from arena.v1 import bot_pb2, bot_pb2_grpc

Policy = Callable[[bot_pb2.DecisionRequest], bot_pb2.ActionReply | None]


def first_legal(request: bot_pb2.DecisionRequest) -> bot_pb2.ActionReply:
    return bot_pb2.ActionReply(request_id=request.request_id, legal_index=0)


def hello(version: int = 1, games: tuple[str, ...] = ("caper",)) -> bot_pb2.ConnectRequest:
    return bot_pb2.ConnectRequest(hello=bot_pb2.Hello(protocol_version=version, games=games))


@dataclass
class RawBot:
    """Connects in a thread, answers decisions with `policy` (None: stay silent), records all."""

    target: str
    token: str
    policy: Policy = first_legal
    received: list[bot_pb2.ConnectResponse] = field(default_factory=list)
    error: grpc.RpcError | None = None
    first: bot_pb2.ConnectRequest = field(default_factory=hello)
    _outbox: queue.Queue[bot_pb2.ConnectRequest | None] = field(default_factory=queue.Queue)
    _thread: threading.Thread | None = None
    _channel: grpc.Channel | None = None
    welcomed: threading.Event = field(default_factory=threading.Event)
    ended: threading.Event = field(default_factory=threading.Event)

    def start(self) -> RawBot:
        self._channel = grpc.insecure_channel(self.target)
        self._outbox.put(self.first)
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def send(self, message: bot_pb2.ConnectRequest) -> None:
        self._outbox.put(message)

    def close(self) -> None:
        """Hang up the way a crashed bot would: the channel just goes away."""
        self._outbox.put(None)
        if self._channel is not None:
            self._channel.close()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def of_kind(self, kind: str) -> list[bot_pb2.ConnectResponse]:
        return [m for m in list(self.received) if m.WhichOneof("message") == kind]

    def wait_for(
        self, kind: str, count: int = 1, timeout_s: float = 10
    ) -> list[bot_pb2.ConnectResponse]:
        """The messages of `kind` once `count` have arrived: a game ends before its GameOver lands."""
        deadline = time.monotonic() + timeout_s
        while len(found := self.of_kind(kind)) < count and time.monotonic() < deadline:
            time.sleep(0.01)
        return found

    def _requests(self) -> Iterator[bot_pb2.ConnectRequest]:
        while (message := self._outbox.get()) is not None:
            yield message

    def _run(self) -> None:
        assert self._channel is not None
        stub = bot_pb2_grpc.BotGatewayServiceStub(self._channel)
        metadata: tuple[tuple[str, str | bytes], ...] = (
            (("authorization", f"Bearer {self.token}"),) if self.token else ()
        )
        try:
            for message in stub.Connect(self._requests(), metadata=metadata):
                self.received.append(message)
                self._react(message)
        except grpc.RpcError as error:
            self.error = error
        finally:
            self.ended.set()

    def _react(self, message: bot_pb2.ConnectResponse) -> None:
        kind = message.WhichOneof("message")
        if kind == "welcome":
            self.welcomed.set()
        elif kind == "decision_request":
            reply = self.policy(message.decision_request)
            if reply is not None:
                self._outbox.put(bot_pb2.ConnectRequest(action_reply=reply))
