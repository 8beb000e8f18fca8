"""What one gateway shares between all its bot streams: the streams themselves, and the two
loops that serve them all from Redis with a fixed number of connections (store/relay.py).

The hub also watches Redis: an error is retried with backoff and logged once per outage;
health says NOT_SERVING until Redis answers again, and a stream whose own call cannot get
through, or every stream once the outage lasts too long, ends with UNAVAILABLE (the SDKs
reconnect, maybe to another gateway).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import grpc
import redis
from google.protobuf.message import DecodeError

from arena.store.relay import GatewayRelay, StreamEnd
from arena.v1 import bot_pb2

log = logging.getLogger("arena.gateway")

T = TypeVar("T")

ONLINE_TTL_S = 3  # presence expires this long after a gateway stops refreshing it
HEARTBEAT_S = 1.0  # how often presence is refreshed and every inbox swept
WAKE_WAIT_S = 1.0  # how long the reader blocks on the wake list at a time
TAKE_MOST = 64  # inbox messages taken per bot at a time
WAKES_MOST = 256  # woken bot ids popped at a time
OUTGOING_LIMIT = 64  # messages a stream may have waiting to be written to its bot
RECENT_REQUESTS = 1024  # request ids a stream remembers, to never send one twice
RETRY_S = 5.0  # how long one stream's Redis call is retried before the stream gives up
BACKOFF_S = (0.05, 2.0)  # first and longest pause between attempts
STOP_RECANCEL_S = 0.1  # how often a stop cancels again the tasks that are still running

REDIS_DOWN = (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError)

Health = Callable[[bool], Awaitable[None]]


@dataclass(frozen=True)
class Abort:
    code: grpc.StatusCode
    details: str


CLOSE = object()  # the bot closed its side: end the call normally


@dataclass(eq=False)
class Stream:
    """One bot's live stream: what waits to be written to it, bounded."""

    bot_id: str
    name: str
    session: str
    outgoing: asyncio.Queue[Any] = field(default_factory=lambda: asyncio.Queue(OUTGOING_LIMIT))
    sent_requests: dict[str, None] = field(default_factory=dict)  # recent ones, oldest first
    ending: Abort | None = None
    writing: asyncio.Timeout | None = None  # the write in flight, to cut short on abort
    released: bool = False  # no longer the bot's stream in Redis

    def send(self, message: bot_pb2.ConnectResponse | bytes | object) -> None:
        """Queue a message; a bot that lets OUTGOING_LIMIT pile up is not reading: drop it."""
        if self.ending is not None:
            return
        try:
            self.outgoing.put_nowait(message)
        except asyncio.QueueFull:
            self.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"{OUTGOING_LIMIT} messages are waiting for you: read your stream",
            )

    def forward(self, payload: bytes) -> None:
        """Queue a runner's serialized ConnectResponse as it is: read, never encoded again."""
        try:
            message = bot_pb2.ConnectResponse.FromString(payload)
        except DecodeError:  # not from our runners: drop it rather than the whole delivery
            log.warning("dropped an unreadable message for bot %s", self.name)
            return
        if message.WhichOneof("message") == "decision_request":
            rid = message.decision_request.request_id
            if rid in self.sent_requests:  # resent on connect and still in the inbox
                return
            self.sent_requests[rid] = None
            if len(self.sent_requests) > RECENT_REQUESTS:
                del self.sent_requests[next(iter(self.sent_requests))]
        self.send(payload)

    def abort(self, code: grpc.StatusCode, details: str) -> None:
        """End the call with this status, ahead of anything still queued."""
        if self.ending is not None:
            return
        self.ending = Abort(code, details)
        while not self.outgoing.empty():
            self.outgoing.get_nowait()
        self.outgoing.put_nowait(self.ending)
        if self.writing is not None:  # a write stuck behind a bot that does not read
            self.writing.reschedule(asyncio.get_running_loop().time())


class Hub:
    def __init__(
        self, relay: GatewayRelay, health: Health | None = None, outage_limit_s: float = 10.0
    ) -> None:
        self.relay = relay
        self.streams: dict[str, Stream] = {}
        self.serving = True
        self._health, self._outage_limit_s = health, outage_limit_s
        self._down_since: float | None = None
        self._delivering = asyncio.Lock()  # one delivery at a time keeps each inbox in order
        self._tasks: list[asyncio.Task[None]] = []
        self._pokes: set[asyncio.Task[None]] = set()  # held: the loop keeps only weak references
        self._stopping = False

    def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._forever(self._wake_once), name="gateway-wake"),
            asyncio.create_task(self._forever(self._heartbeat_once), name="gateway-heartbeat"),
        ]

    async def stop(self) -> None:
        """End both loops and any delivery on its way. A task can outlive a cancellation (see
        `cancel_until_done`): each loop also ends at its next step, so a stop is bounded."""
        self._stopping = True
        await cancel_until_done([*self._tasks, *self._pokes])

    def add(self, stream: Stream) -> None:
        older = self.streams.get(stream.bot_id)
        if older is not None:
            older.abort(grpc.StatusCode.ABORTED, REPLACED)
        self.streams[stream.bot_id] = stream

    def remove(self, stream: Stream) -> None:
        if self.streams.get(stream.bot_id) is stream:
            del self.streams[stream.bot_id]

    async def call(self, make: Callable[[], Awaitable[T]]) -> T:
        """A stream's Redis call, retried through a short outage; raises if it lasts."""
        loop = asyncio.get_running_loop()
        give_up, pause = loop.time() + RETRY_S, BACKOFF_S[0]
        while True:
            started = loop.time()
            try:
                result = await make()
            except REDIS_DOWN as error:
                await self._failed(error)
                if loop.time() + pause > give_up:
                    raise
                await asyncio.sleep(pause)
                pause = min(pause * 2, BACKOFF_S[1])
                continue
            await self._recovered(started)
            return result

    async def deliver(self, bot_ids: Iterable[str], wakes: int = 0) -> set[str]:
        """Take what waits in these bots' inboxes and queue it on their streams; with `wakes`,
        pop up to that many more woken bot ids on the way (returned)."""
        async with self._delivering:
            sessions = {b: s.session for b in bot_ids if (s := self.streams.get(b)) is not None}
            taken, woken = await self.relay.take_woken(sessions, TAKE_MOST, wakes)
            for bot_id, payloads in taken.items():
                stream = self.streams.get(bot_id)
                if stream is None or stream.session != sessions[bot_id]:
                    continue  # gone while we asked; undelivered requests are resent on connect
                if payloads is None:
                    await self._taken_over(stream)
                    continue
                for payload in payloads:
                    stream.forward(payload)
                if len(payloads) == TAKE_MOST:
                    asyncio.get_running_loop().call_soon(self.poke, bot_id)
            return woken

    def poke(self, bot_id: str) -> None:
        """Deliver to one bot soon, without waiting for its wake-up (a new stream, a backlog)."""
        task = asyncio.create_task(self._poke(bot_id))
        self._pokes.add(task)
        task.add_done_callback(self._pokes.discard)

    async def _poke(self, bot_id: str) -> None:
        try:
            await self.deliver([bot_id])
        except redis.RedisError as error:  # the sweep delivers once Redis is back
            log.debug("could not deliver to bot %s yet: %s", bot_id, error)

    async def _wake_once(self) -> None:
        first = await self.relay.woken(WAKE_WAIT_S)
        woken = {first} if first is not None else set()
        while woken and not self._stopping:  # the next wake-ups come with each delivery
            woken = await self.deliver(woken, WAKES_MOST)

    async def _heartbeat_once(self) -> None:
        """Beat, refresh presence, deliver. The beat is a Redis round trip even with no stream
        left: health (set back to SERVING by a step that worked) must follow a real check."""
        sessions = {bot_id: stream.session for bot_id, stream in self.streams.items()}
        for bot_id in await self.relay.refresh(sessions, ONLINE_TTL_S):
            stream = self.streams.get(bot_id)
            if stream is not None and stream.session == sessions[bot_id]:
                await self._taken_over(stream)
        for bot_id, session in sessions.items():
            stream = self.streams.get(bot_id)
            if stream is None or stream.session != session:  # ended meanwhile: the refresh
                await self.relay.release(bot_id, session)  # may have claimed it again
        await self.deliver(list(sessions))  # the safety net for lost wake-ups
        await asyncio.sleep(HEARTBEAT_S)

    async def _taken_over(self, stream: Stream) -> None:
        """Abort a stream that is no longer its bot's one, telling the bot why: its token was
        rotated or the bot revoked (the old token is refused now: UNAUTHENTICATED), or a newer
        connection of the bot took over (ABORTED: the SDK steps aside)."""
        why = await self.relay.ended_by(stream.bot_id)
        if why is None:
            stream.abort(grpc.StatusCode.ABORTED, REPLACED)
        else:
            stream.abort(grpc.StatusCode.UNAUTHENTICATED, ENDED_BY_ARENA[why])

    async def _forever(self, step: Callable[[], Awaitable[None]]) -> None:
        pause, loop = BACKOFF_S[0], asyncio.get_running_loop()
        while not self._stopping:
            started = loop.time()
            try:
                await step()
            except REDIS_DOWN as error:
                await self._failed(error)
                await asyncio.sleep(pause)
                pause = min(pause * 2, BACKOFF_S[1])
                continue
            except redis.RedisError as error:  # e.g. a read-only replica: not ours to fix
                log.error("Redis refused the gateway's relay: %s", error)
                await asyncio.sleep(BACKOFF_S[1])
                continue
            except Exception:  # a bug must not leave every bot of this gateway without messages
                log.exception("the gateway's relay failed; carrying on")
                await asyncio.sleep(BACKOFF_S[1])
                continue
            pause = BACKOFF_S[0]
            await self._recovered(started)

    async def _failed(self, error: Exception) -> None:
        now = asyncio.get_running_loop().time()
        if self._down_since is None:
            self._down_since = now
            log.warning("Redis is unreachable (%s): retrying, health NOT_SERVING", error)
            await self._set_serving(False)
        elif now - self._down_since > self._outage_limit_s:
            live = [stream for stream in self.streams.values() if stream.ending is None]
            if live:
                log.warning("Redis still unreachable: ending %d bot streams", len(live))
            for stream in live:
                stream.abort(grpc.StatusCode.UNAVAILABLE, UNREACHABLE)

    async def _recovered(self, started: float) -> None:
        """A call that began at `started` worked: if it began after the outage did, it is over."""
        if self._down_since is not None and started >= self._down_since:
            down_s = asyncio.get_running_loop().time() - self._down_since
            self._down_since = None
            log.warning("Redis is reachable again after %.1f s: health SERVING", down_s)
            await self._set_serving(True)

    async def _set_serving(self, serving: bool) -> None:
        self.serving = serving
        if self._health is not None:
            await self._health(serving)


async def cancel_until_done(tasks: Collection[asyncio.Task[Any]]) -> None:
    """Cancel `tasks` and wait until every one has ended, cancelling again while any still runs.
    Once is not enough on Python 3.11: redis-py sends each command inside `asyncio.wait_for`,
    which returns the send's result instead of raising when a cancellation arrives just as the
    send finished, so the task carries on (into the next BLPOP of a loop, for ever)."""
    running = set(tasks)
    while running:
        for task in running:
            task.cancel()
        _, running = await asyncio.wait(running, timeout=STOP_RECANCEL_S)


REPLACED = "replaced by a newer connection of this bot"
ENDED_BY_ARENA = {
    StreamEnd.TOKEN_ROTATED: "this bot's token was rotated: connect again with the new token",
    StreamEnd.BOT_REVOKED: "this bot was revoked: no token works for it any more",
}
UNREACHABLE = "the arena cannot reach its store (Redis) just now: connect again shortly"
