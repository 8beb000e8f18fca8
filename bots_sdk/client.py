"""The connection to the arena: one long-lived `BotGatewayService.Connect` stream, kept alive and
re-opened as needed (bot.proto's header describes the flow).

Design: the synchronous gRPC API. Outgoing messages go through a `queue.Queue` that gRPC's own
sending thread drains (the request iterator); the calling thread reads the incoming messages and
answers each decision request as it arrives, one at a time. So the bot's code always runs on the
thread that called `run`, never concurrently with itself, and needs no locking; Python threads
would not make a CPU-bound bot faster anyway. While the bot thinks, gRPC keeps the transport
alive on its own threads.

Each attempt uses a fresh channel, so our backoff is the only one: a channel reused after a
failure would add gRPC's own reconnect backoff (up to two minutes) on top of ours.
"""

from __future__ import annotations

import logging
import queue
import random
import signal
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from enum import Enum
from types import FrameType

import grpc

from arena import codec
from arena.games import GAMES
from arena.v1 import bot_pb2, bot_pb2_grpc
from bots_sdk.backoff import Backoff
from bots_sdk.bot import BotSource
from bots_sdk.errors import AuthenticationError, ProtocolError
from bots_sdk.player import BotFault, Player

LOG = logging.getLogger("bots_sdk")

# The gateway lets clients send HTTP/2 pings every 10 s; pinging faster would get the connection
# closed with "too many pings". 20 s detects a dead peer well within the arena's grace period.
KEEPALIVE_OPTIONS: tuple[tuple[str, int], ...] = (
    ("grpc.keepalive_time_ms", 20_000),
    ("grpc.keepalive_timeout_ms", 10_000),
    ("grpc.keepalive_permit_without_calls", 1),
    ("grpc.http2.max_pings_without_data", 0),  # the stream can be quiet for minutes between games
)
# Application-level Ping: HTTP/2 pings stop at the first proxy, this one reaches the gateway and
# keeps idle-timeouts of proxies in between from closing a quiet stream.
PING_INTERVAL_S = 30.0
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
WATCH_INTERVAL_S = 0.1  # how quickly `stop.set()` from another thread is noticed

_FATAL_AUTH = (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED)
_FATAL_PROTOCOL = (
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.UNIMPLEMENTED,
)


class _End(Enum):
    """How a session ended, when it did not raise."""

    STOPPED = "stopped"  # stop was set, or max_games reached
    REPLACED = "replaced"  # a newer connection took over: never fight it
    BROKEN = "broken"  # reconnect


def run(
    bot: BotSource,
    target: str,
    token: str,
    *,
    games: Sequence[str] | None = None,
    stop: threading.Event | None = None,
    max_games: int | None = None,
    backoff: Backoff | None = None,
    credentials: grpc.ChannelCredentials | None = None,
) -> int:
    """Play on the arena at `target` ("host:port") until stopped; return how many games ended.

    `bot` is a prototype instance, deep-copied for each (game, seat), or the bot's class (or a
    zero-argument factory), called for each; see `bots_sdk.bot`. `games` (the ids announced in
    Hello) defaults to the bot's own `Bot.games`. Returns when
    `stop` is set, after `max_games` games, on Ctrl-C or SIGTERM, or when a newer
    connection with the same token replaces this one. Reconnects with exponential backoff when
    the connection breaks. Raises `AuthenticationError` for a refused token (also when the
    bot's token is rotated or the bot revoked while it plays) and `ProtocolError`
    when the arena cannot talk to this SDK; pass `credentials` (e.g.
    `grpc.ssl_channel_credentials()`) for a TLS endpoint."""
    client = Client(
        bot,
        target,
        token,
        games=games,
        stop=stop,
        max_games=max_games,
        backoff=backoff,
        credentials=credentials,
    )
    return client.run()


class Client:
    """`run`'s machinery, for code that needs to watch it (tests, the live conformance check)."""

    def __init__(
        self,
        bot: BotSource,
        target: str,
        token: str,
        *,
        games: Sequence[str] | None = None,
        stop: threading.Event | None = None,
        max_games: int | None = None,
        backoff: Backoff | None = None,
        credentials: grpc.ChannelCredentials | None = None,
        ping_interval_s: float = PING_INTERVAL_S,
        rng: random.Random | None = None,
    ) -> None:
        self.player = Player(bot)
        games = self.player.bot.games if games is None else games
        unknown = sorted(set(games) - set(GAMES))
        if unknown:
            raise ValueError(f"this SDK cannot play {', '.join(unknown)}: only {', '.join(GAMES)}")
        self.bot, self.target, self.games = self.player.bot, target, tuple(games)
        self.stop_event = stop or threading.Event()
        self.max_games, self.backoff = max_games, backoff or Backoff()
        self.connected = threading.Event()  # set while a session is welcomed
        self.welcome: bot_pb2.Welcome | None = None
        self.sessions = 0  # welcomed sessions so far
        self.replaced = False
        self._token, self._credentials = token, credentials
        self._ping_interval_s = ping_interval_s
        self._rng = rng or random.Random()
        self._lock = threading.Lock()
        self._call: grpc.CallIterator[bot_pb2.ConnectResponse] | None = None
        self._finished = threading.Event()

    def stop(self) -> None:
        self.stop_event.set()

    def run(self) -> int:
        """See `run` above."""
        self._finished.clear()
        watcher = threading.Thread(target=self._watch_stop, name="bots_sdk-stop", daemon=True)
        watcher.start()
        try:
            with _stop_on_signals(self.stop_event):
                self._reconnect_loop()
        except KeyboardInterrupt:
            LOG.info("interrupted: closing the connection")
        finally:
            self._finished.set()
            self._cancel()
            self.connected.clear()
        return self.player.games_over

    def _reconnect_loop(self) -> None:
        attempt = 0
        while not self.stop_event.is_set():
            started = time.monotonic()
            sessions = self.sessions
            end, why = self._session()
            if end is not _End.BROKEN or self.stop_event.is_set():
                return
            healthy = self.sessions > sessions
            if healthy and time.monotonic() - started >= self.backoff.reset_after_s:
                attempt = 0
            delay = self.backoff.delay(attempt, self._rng)
            attempt += 1
            LOG.warning("connection to %s lost (%s); retrying in %.1f s", self.target, why, delay)
            self.stop_event.wait(delay)

    def _session(self) -> tuple[_End, str]:
        """One stream, from Hello to its end."""
        outbox: queue.Queue[bot_pb2.ConnectRequest | None] = queue.Queue()
        outbox.put(self._hello())
        channel = self._channel()
        try:
            stub = bot_pb2_grpc.BotGatewayServiceStub(channel)
            call = stub.Connect(self._requests(outbox), metadata=self._metadata())
            with self._lock:
                self._call = call
            if self.stop_event.is_set():  # set between the loop's check and the call
                self._cancel()
            return self._receive(call, outbox)
        except grpc.RpcError as error:
            return self._failed(error)
        finally:
            outbox.put(None)  # ends the request iterator, on whichever thread gRPC runs it
            with self._lock:
                self._call = None
            self.connected.clear()
            channel.close()

    def _receive(
        self,
        call: grpc.CallIterator[bot_pb2.ConnectResponse],
        outbox: queue.Queue[bot_pb2.ConnectRequest | None],
    ) -> tuple[_End, str]:
        for message in call:
            if not self.connected.is_set():
                self._handshake(message)
                continue
            reply = self._handle(message)
            if reply is not None:
                outbox.put(reply)
            if self.max_games is not None and self.player.games_over >= self.max_games:
                LOG.info("played %d games: stopping", self.player.games_over)
                return _End.STOPPED, "max_games"
        if self.stop_event.is_set():
            return _End.STOPPED, "stopped"
        return _End.BROKEN, "the arena closed the stream"

    def _handshake(self, message: bot_pb2.ConnectResponse) -> None:
        kind = message.WhichOneof("message")
        if kind == "error":
            raise ProtocolError(f"the arena refused the Hello: {message.error.message}")
        if kind != "welcome":
            raise ProtocolError(f"the arena's first message is {kind}, not Welcome")
        welcome = message.welcome
        if welcome.protocol_version != codec.PROTOCOL_VERSION:
            raise ProtocolError(
                f"the arena speaks protocol {welcome.protocol_version}, "
                f"this SDK speaks {codec.PROTOCOL_VERSION}"
            )
        self.welcome = welcome
        self.sessions += 1
        self.connected.set()
        LOG.info(
            "connected to %s as %s (bot id %s, arena %s)",
            self.target,
            welcome.bot_name,
            welcome.bot_id,
            welcome.server_version,
        )

    def _handle(self, message: bot_pb2.ConnectResponse) -> bot_pb2.ConnectRequest | None:
        try:
            return self.player.handle(message)
        except BotFault:
            # The bot's bug costs it this move (the arena's fault policy), not the connection.
            LOG.exception("the bot failed; no answer sent")
        except ValueError:  # CodecError, GameError: a message the SDK cannot read
            LOG.exception("could not read a %s message", message.WhichOneof("message"))
        return None

    def _failed(self, error: grpc.RpcError) -> tuple[_End, str]:
        code, details = error.code(), error.details() or ""
        if code in _FATAL_AUTH:
            raise AuthenticationError(
                f"the arena at {self.target} refused the token ({code.name}: {details})"
            ) from None
        if code in _FATAL_PROTOCOL:
            raise ProtocolError(f"{self.target}: {code.name}: {details}") from None
        if code == grpc.StatusCode.ABORTED:
            LOG.info("this connection was replaced by a newer one (%s): stopping", details)
            self.replaced = True
            return _End.REPLACED, details
        if code == grpc.StatusCode.CANCELLED and self.stop_event.is_set():
            return _End.STOPPED, "stopped"
        return _End.BROKEN, f"{code.name}: {details}"

    def _requests(
        self, outbox: queue.Queue[bot_pb2.ConnectRequest | None]
    ) -> Iterator[bot_pb2.ConnectRequest]:
        """What gRPC sends: queued messages, and a Ping whenever the stream has been quiet."""
        nonce = 0
        while True:
            try:
                message = outbox.get(timeout=self._ping_interval_s)
            except queue.Empty:
                nonce += 1
                yield bot_pb2.ConnectRequest(ping=bot_pb2.Ping(nonce=nonce))
                continue
            if message is None:
                return
            yield message

    def _hello(self) -> bot_pb2.ConnectRequest:
        hello = bot_pb2.Hello(
            protocol_version=codec.PROTOCOL_VERSION,
            games=self.games,
            bot_version=self.bot.version,
            info=self.bot.info,
        )
        return bot_pb2.ConnectRequest(hello=hello)

    def _metadata(self) -> tuple[tuple[str, str], ...]:
        return (("authorization", f"Bearer {self._token}"),)

    def _channel(self) -> grpc.Channel:
        if self._credentials is None:
            return grpc.insecure_channel(self.target, options=KEEPALIVE_OPTIONS)
        return grpc.secure_channel(self.target, self._credentials, options=KEEPALIVE_OPTIONS)

    def _watch_stop(self) -> None:
        # `for message in call` cannot wait on an Event: cancelling the call is what wakes it.
        while not self._finished.is_set():
            if self.stop_event.wait(WATCH_INTERVAL_S):
                self._cancel()
                return

    def _cancel(self) -> None:
        with self._lock:
            call = self._call
        if call is not None:
            call.cancel()  # type: ignore[no-untyped-call]  # grpc-stubs leaves cancel untyped

    def _drop_connection(self) -> None:
        """Break the current stream as a network failure would (for reconnect checks)."""
        self._cancel()


@contextmanager
def _stop_on_signals(stop: threading.Event) -> Iterator[None]:
    """SIGTERM (docker stop, kubectl delete) and Ctrl-C set `stop`, so the stream is closed from
    our own code: a KeyboardInterrupt raised inside gRPC's locking can leave the channel unable
    to close. A second Ctrl-C interrupts at once (a bot stuck in its own code). Only the main
    thread may install handlers."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        if signum == signal.SIGINT and stop.is_set():
            raise KeyboardInterrupt
        LOG.info("%s: closing the connection", signal.Signals(signum).name)
        stop.set()

    previous = {signum: signal.signal(signum, handler) for signum in STOP_SIGNALS}
    try:
        yield
    finally:
        for signum, before in previous.items():
            signal.signal(signum, before)
