"""A scripted BotGatewayService in this process: each connection runs the next script.

It lets the client's network behaviour (handshake, replies, pings, reconnects, refusals) be
tested without Redis or the real gateway. A script is a generator over one `Session`: it reads
what the bot sent with `session.receive()` and yields what the arena sends; raising through
`session.abort()` ends the call with a gRPC status.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator
from concurrent import futures
from typing import Any

import grpc

from arena.v1 import bot_pb2, bot_pb2_grpc
from tests.bots_sdk import messages

TOKEN = "good-token"
SERVER_OPTIONS = (
    # What the real gateway promises (bot.proto clients may ping every 10 s).
    ("grpc.http2.min_ping_interval_without_data_ms", 10_000),
    ("grpc.keepalive_permit_without_calls", 1),
)
Script = Callable[["Session"], Iterator[bot_pb2.ConnectResponse]]


class Session:
    def __init__(self, requests: Iterator[bot_pb2.ConnectRequest], context: Any) -> None:
        self.context = context
        self.hello: bot_pb2.Hello | None = None
        self.received: list[bot_pb2.ConnectRequest] = []  # everything but pings, in order
        self.pings: list[int] = []
        self.closed = threading.Event()  # the bot has gone (closed or cancelled its stream)
        self._in: queue.Queue[bot_pb2.ConnectRequest | None] = queue.Queue()
        threading.Thread(target=self._read, args=(requests,), daemon=True).start()

    def receive(self, timeout_s: float = 5.0) -> bot_pb2.ConnectRequest:
        """The bot's next message other than Ping."""
        message = self._in.get(timeout=timeout_s)
        if message is None:
            self._in.put(None)
            raise EOFError("the bot closed its side of the stream")
        return message

    def wait_pings(self, count: int, timeout_s: float = 5.0) -> bool:
        end = time.monotonic() + timeout_s
        while len(self.pings) < count and time.monotonic() < end:
            time.sleep(0.01)
        return len(self.pings) >= count

    def abort(self, code: grpc.StatusCode, details: str) -> None:
        self.context.abort(code, details)

    def _read(self, requests: Iterator[bot_pb2.ConnectRequest]) -> None:
        try:
            for message in requests:
                if message.WhichOneof("message") == "ping":
                    self.pings.append(message.ping.nonce)
                    continue
                self.received.append(message)
                self._in.put(message)
        except Exception:  # cancelled by the bot: the same as closed for a script
            pass
        self._in.put(None)
        self.closed.set()


class FakeGateway(bot_pb2_grpc.BotGatewayServiceServicer):
    """Runs `scripts` in order, one per connection; later connections reuse the last one."""

    def __init__(self, scripts: list[Script]) -> None:
        self.scripts = scripts
        self.sessions: list[Session] = []
        self.calls = 0
        self.connected = threading.Semaphore(0)  # released once per accepted connection
        self._server: grpc.Server | None = None
        self.port = 0

    def start(self, port: int = 0) -> FakeGateway:
        server = grpc.server(futures.ThreadPoolExecutor(max_workers=16), options=SERVER_OPTIONS)
        bot_pb2_grpc.add_BotGatewayServiceServicer_to_server(self, server)
        self.port = server.add_insecure_port(f"127.0.0.1:{port}")
        server.start()
        self._server = server
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop(grace=None)
            self._server = None

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    def Connect(  # the name the generated base class gives
        self, request_iterator: Iterator[bot_pb2.ConnectRequest], context: Any
    ) -> Iterator[bot_pb2.ConnectResponse]:
        self.calls += 1
        if dict(context.invocation_metadata()).get("authorization") != f"Bearer {TOKEN}":
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "unknown token")
        session = Session(request_iterator, context)
        script = self.scripts[min(len(self.sessions), len(self.scripts) - 1)]
        self.sessions.append(session)
        self.connected.release()
        yield from script(session)


def welcomed(session: Session) -> Iterator[bot_pb2.ConnectResponse]:
    """The handshake part of a script."""
    hello = session.receive()
    assert hello.WhichOneof("message") == "hello", hello
    session.hello = hello.hello
    yield messages.welcome()


def idle(session: Session) -> Iterator[bot_pb2.ConnectResponse]:
    """Welcome, then nothing until the bot goes away."""
    yield from welcomed(session)
    session.closed.wait(timeout=60)
