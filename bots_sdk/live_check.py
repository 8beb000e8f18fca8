"""Checks against a live arena: the handshake, Ping, a refused token, reconnecting after a
broken stream, and stepping aside for a newer connection. Run it while the bot is not scheduled
in games: the check opens connections of its own with the bot's token."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator

import grpc

from arena import codec
from arena.v1 import bot_pb2, bot_pb2_grpc
from bots_sdk.backoff import Backoff
from bots_sdk.bot import Bot
from bots_sdk.client import KEEPALIVE_OPTIONS, Client
from bots_sdk.errors import AuthenticationError
from bots_sdk.report import Report

_FAST = Backoff(initial_s=0.1, maximum_s=1.0)
_NONCE = 424242


def check_bot_against_server(
    bot: Bot,
    target: str,
    token: str,
    *,
    timeout_s: float = 10.0,
    credentials: grpc.ChannelCredentials | None = None,
) -> Report:
    """Each step waits at most `timeout_s` for the arena."""
    report = Report(f"live check of {type(bot).__name__} on {target}")
    _check_handshake(report, bot, target, token, timeout_s, credentials)
    _check_refused_token(report, bot, target, token, timeout_s, credentials)
    _check_reconnect_and_replace(report, bot, target, token, timeout_s, credentials)
    return report


def _check_handshake(
    report: Report,
    bot: Bot,
    target: str,
    token: str,
    timeout_s: float,
    credentials: grpc.ChannelCredentials | None,
) -> None:
    with RawStream(target, token, credentials) as stream:
        stream.send(bot_pb2.ConnectRequest(hello=_hello(bot)))
        first = stream.receive(timeout_s)
        welcomed = first is not None and first.WhichOneof("message") == "welcome"
        if not report.check(welcomed, "Hello is answered by Welcome", f"got {_kind(first)}"):
            return
        assert first is not None
        welcome = first.welcome
        report.check(
            welcome.protocol_version == codec.PROTOCOL_VERSION and bool(welcome.bot_id),
            "Welcome names the bot and protocol version 1",
            f"bot_id={welcome.bot_id!r}, protocol_version={welcome.protocol_version}",
        )
        stream.send(bot_pb2.ConnectRequest(ping=bot_pb2.Ping(nonce=_NONCE)))
        pong = stream.receive_kind("pong", timeout_s)
        report.check(
            pong is not None and pong.pong.nonce == _NONCE,
            "Ping is answered by Pong with the same nonce",
            f"got {_kind(pong)}",
        )


def _check_refused_token(
    report: Report,
    bot: Bot,
    target: str,
    token: str,
    timeout_s: float,
    credentials: grpc.ChannelCredentials | None,
) -> None:
    client = Client(bot, target, token + "-not-the-token", backoff=_FAST, credentials=credentials)
    outcome = _Background(client)
    finished = outcome.join(timeout_s)
    client.stop()  # in case the arena let it in
    report.check(
        finished and isinstance(outcome.error, AuthenticationError),
        "a wrong token raises AuthenticationError, without retrying",
        f"got {outcome.error!r}" if finished else "still connecting",
    )


def _check_reconnect_and_replace(
    report: Report,
    bot: Bot,
    target: str,
    token: str,
    timeout_s: float,
    credentials: grpc.ChannelCredentials | None,
) -> None:
    client = Client(bot, target, token, backoff=_FAST, credentials=credentials)
    running = _Background(client)
    try:
        if not report.check(
            client.connected.wait(timeout_s), "the SDK connects", "no Welcome in time"
        ):
            return
        client._drop_connection()
        again = wait_until(lambda: client.sessions >= 2 and client.connected.is_set(), timeout_s)
        report.check(again, "the SDK reconnects after its stream breaks", "it did not come back")
        with RawStream(target, token, credentials) as newer:
            newer.send(bot_pb2.ConnectRequest(hello=_hello(bot)))
            newer.receive_kind("welcome", timeout_s)
            stopped = running.join(timeout_s)
            report.check(
                stopped and client.replaced and running.error is None,
                "a newer connection replaces the SDK's, which stops cleanly",
                f"finished={stopped}, replaced={client.replaced}, error={running.error!r}",
            )
    finally:
        client.stop()
        running.join(timeout_s)


class RawStream:
    """A bare Connect stream, messages in and out by hand (for checks and tests)."""

    def __init__(
        self, target: str, token: str, credentials: grpc.ChannelCredentials | None = None
    ) -> None:
        if credentials is None:
            self._channel = grpc.insecure_channel(target, options=KEEPALIVE_OPTIONS)
        else:
            self._channel = grpc.secure_channel(target, credentials, options=KEEPALIVE_OPTIONS)
        self._out: queue.Queue[bot_pb2.ConnectRequest | None] = queue.Queue()
        self._in: queue.Queue[bot_pb2.ConnectResponse | grpc.RpcError | None] = queue.Queue()
        stub = bot_pb2_grpc.BotGatewayServiceStub(self._channel)
        metadata = (("authorization", f"Bearer {token}"),)
        self._call = stub.Connect(self._requests(), metadata=metadata)
        self.status: grpc.RpcError | None = None  # how the stream ended, once it has
        threading.Thread(target=self._read, daemon=True).start()

    def send(self, message: bot_pb2.ConnectRequest) -> None:
        self._out.put(message)

    def receive(self, timeout_s: float) -> bot_pb2.ConnectResponse | None:
        """The next message; None on timeout or once the stream has ended (see `status`)."""
        try:
            got = self._in.get(timeout=timeout_s)
        except queue.Empty:
            return None
        if isinstance(got, grpc.RpcError) or got is None:
            self.status = got if isinstance(got, grpc.RpcError) else None
            self._in.put(got)  # stays ended for later reads
            return None
        return got

    def receive_kind(self, kind: str, timeout_s: float) -> bot_pb2.ConnectResponse | None:
        """The next message of `kind`, skipping others (e.g. a Pong while waiting for a game)."""
        end = time.monotonic() + timeout_s
        while (left := end - time.monotonic()) > 0:
            message = self.receive(left)
            if message is None:
                return None
            if message.WhichOneof("message") == kind:
                return message
        return None

    def close(self) -> None:
        self._out.put(None)
        self._channel.close()

    def __enter__(self) -> RawStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _requests(self) -> Iterator[bot_pb2.ConnectRequest]:
        while (message := self._out.get()) is not None:
            yield message

    def _read(self) -> None:
        try:
            for message in self._call:
                self._in.put(message)
        except grpc.RpcError as error:
            self._in.put(error)
        else:
            self._in.put(None)


class _Background:
    """`client.run()` on a thread, keeping what it raised."""

    def __init__(self, client: Client) -> None:
        self.error: BaseException | None = None
        self._client = client
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def join(self, timeout_s: float) -> bool:
        self._thread.join(timeout_s)
        return not self._thread.is_alive()

    def _run(self) -> None:
        try:
            self._client.run()
        except Exception as error:
            self.error = error


def wait_until(condition: Callable[[], bool], timeout_s: float) -> bool:
    """Whether `condition` came true within `timeout_s` (polled every 50 ms)."""
    end = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def _hello(bot: Bot) -> bot_pb2.Hello:
    return bot_pb2.Hello(protocol_version=codec.PROTOCOL_VERSION, games=bot.games)


def _kind(message: bot_pb2.ConnectResponse | None) -> str:
    return "nothing" if message is None else str(message.WhichOneof("message"))
