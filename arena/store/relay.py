"""The decision relay between game runners and gateways, through Redis (ARCHITECTURE.md step 3-4).

A runner (in a worker) sends a bot a serialized message by pushing it on the bot's inbox; a
decision request is also kept in the bot's pending hash, so that a bot that reconnects gets
it again. The bot's answer goes back through `answer` (`arena.store.answers`), which accepts
the first reply to a pending request only. Messages are opaque bytes here: the relay does not
know protobuf.

Connections do not grow with bots: each gateway has one wake list, and delivering a message
also pushes the bot's id there (the gateway that holds the bot's stream is written in
`bot_gateway` when it claims the bot). One reader per gateway pops its wake list and takes
the inboxes named in it; the inboxes stay the durable copy, and a periodic sweep of every
inbox catches a wake-up that was lost (a gateway that just took the bot over, a restart).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, cast

import redis
import redis.asyncio as aioredis
from redis.client import Pipeline

from arena.store import keys
from arena.store.answers import REPLY_TTL_S, Answer, AnswerBatches
from arena.store.values import as_bytes, as_text

WAKE_TTL_S = 60  # a dead gateway's wake list goes away once nobody pops it
GAMES_TTL_S = 7 * 24 * 3600  # a bot's games set outlives any game; a killed runner's id goes
BEAT_WAIT_S = 10.0  # longest wait for a gateway's next heartbeat (its beat lives a few seconds)
BEAT_POLL_S = 0.1


class StreamEnd(Enum):
    """Why the arena closed a bot's stream itself: written in the session it leaves, so the
    gateway holding the stream tells the bot, not that a newer connection replaced it."""

    TOKEN_ROTATED = "rotated"
    BOT_REVOKED = "revoked"


class Presence(Enum):
    ONLINE = "online"
    DISCONNECTED = "disconnected"  # its gateway said the stream ended (or it never connected)
    GATEWAY_LOST = "gateway lost"  # its gateway stopped refreshing without saying the bot left


# Into the inbox, and wake the gateway that holds the bot (its wake list's key is in KEYS[2]).
_DELIVER = """
redis.call('RPUSH', KEYS[1], ARGV[1])
local wake = redis.call('GET', KEYS[2])
if wake then
  redis.call('RPUSH', wake, ARGV[2])
  redis.call('EXPIRE', wake, ARGV[3])
end
return wake
"""

# A decision request, atomically: its owner, its pending copy, then delivered as above.
_REQUEST = (
    """
redis.call('SET', KEYS[3], ARGV[2], 'EX', ARGV[5])
redis.call('HSET', KEYS[4], ARGV[4], ARGV[1])
"""
    + _DELIVER
)

# After a wait: a request answered (its pending entry gone) is settled, so its owner goes too,
# as `withdraw` would do; an unanswered one is left as it was.
_SETTLE = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then redis.call('DEL', KEYS[2]) end
return 1
"""

# Only the bot's current session takes its inbox: a stale stream gets -1 and takes nothing.
# A missing session (Redis lost its data) is not stale: the next refresh claims the bot again.
_TAKE = """
local session = redis.call('GET', KEYS[1])
if session and session ~= ARGV[1] then return -1 end
return redis.call('LPOP', KEYS[2], ARGV[2]) or {}
"""

# Keep a live stream's presence fresh; 0 if a newer stream took the bot over.
_REFRESH = """
local session = redis.call('GET', KEYS[1])
if session and session ~= ARGV[1] then return 0 end
if not session then
  redis.call('SET', KEYS[1], ARGV[1])
  redis.call('SET', KEYS[3], ARGV[3])
end
redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[2])
return 1
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
end
return 1
"""


class RunnerRelay:
    """The runner's side: synchronous, as RQ jobs are.

    Scripts go as EVAL: in a pipeline, redis-py would first check that an EVALSHA's script is
    loaded, one more round trip per call; and EVAL needs no reloading after a Redis restart."""

    def __init__(self, client: redis.Redis) -> None:
        self._redis = client

    def end_stream(self, bot_id: str, why: StreamEnd) -> None:
        """Close the bot's open stream, if it has one: its session is replaced by one no stream
        holds, named for `why`, which the gateway holding it sees at its next heartbeat and
        aborts it, saying why (`GatewayRelay.ended_by`). The bot is offline from now on: the
        gateway no longer refreshes a presence whose session is not its stream's."""
        pipe = self._redis.pipeline()  # MULTI: never the new session with the old presence
        pipe.set(keys.bot_session(bot_id), f"{why.value}-{secrets.token_hex(8)}")
        pipe.delete(keys.bot_online(bot_id))
        pipe.execute()

    def notify(self, bot_id: str, message: bytes) -> None:
        """A message that needs no answer (game started, game over)."""
        self._redis.eval(_DELIVER, 2, *_deliver_keys(bot_id), message, bot_id, WAKE_TTL_S)

    def request(self, bot_id: str, request_id: str, message: bytes, ttl_s: int) -> None:
        """Send a decision request; it stays pending until answered, withdrawn or expired."""
        self._redis.eval(_REQUEST, 4, *_request_args(bot_id, request_id, message, ttl_s))

    def ask(
        self, bot_id: str, game_id: str, request_id: str, message: bytes, ttl_s: int, wait_s: float
    ) -> Asked:
        """`request` and `wait_reply` for up to `wait_s` in one round trip: Redis starts the wait
        right behind the request, with no acknowledgement to read in between."""
        pipe = self._redis.pipeline(transaction=False)
        pipe.eval(_REQUEST, 4, *_request_args(bot_id, request_id, message, ttl_s))
        got, results = self._waited_with(pipe, bot_id, game_id, request_id, wait_s)
        return Asked(got, None if results[0] is None else as_text(results[0]))

    def wait_reply(
        self, bot_id: str, game_id: str, request_id: str, timeout_s: float
    ) -> tuple[str, bytes] | None:
        """("reply", bytes) or ("resign", b"") from the bot, or None after `timeout_s`. A reply
        settles its request: no `withdraw` is needed after it."""
        pipe = self._redis.pipeline(transaction=False)
        return self._waited(pipe, bot_id, game_id, request_id, timeout_s)

    def _waited(
        self, pipe: Pipeline, bot_id: str, game_id: str, request_id: str, timeout_s: float
    ) -> tuple[str, bytes] | None:
        return self._waited_with(pipe, bot_id, game_id, request_id, timeout_s)[0]

    def _waited_with(
        self, pipe: Pipeline, bot_id: str, game_id: str, request_id: str, timeout_s: float
    ) -> tuple[tuple[str, bytes] | None, list[Any]]:
        """Run `pipe` with the wait behind it, and the settling behind that: what was popped,
        and the results of `pipe`'s own commands."""
        reply, resign = keys.reply(request_id), keys.resignation(game_id, bot_id)
        pipe.blpop([reply, resign], timeout=max(timeout_s, 0.001))
        pipe.eval(_SETTLE, 2, keys.bot_pending(bot_id), keys.request_owner(request_id), request_id)
        results = pipe.execute()
        popped = results[-2]
        if popped is None:
            return None, results[:-2]
        kind = "reply" if as_text(popped[0]) == reply else "resign"
        return (kind, as_bytes(popped[1])), results[:-2]

    def withdraw(self, bot_id: str, request_id: str, late: bool = False) -> None:
        """The request is settled: forget it. A `late` one answers later replies with LATE."""
        pipe = self._redis.pipeline()
        pipe.hdel(keys.bot_pending(bot_id), request_id)
        pipe.delete(keys.reply(request_id))
        if late:
            pipe.set(keys.request_owner(request_id), f"late:{bot_id}", ex=REPLY_TTL_S)
        else:
            pipe.delete(keys.request_owner(request_id))
        pipe.execute()

    def join_game(self, bot_id: str, game_id: str) -> None:
        pipe = self._redis.pipeline(transaction=False)
        pipe.sadd(keys.bot_games(bot_id), game_id)
        pipe.expire(keys.bot_games(bot_id), GAMES_TTL_S)
        pipe.execute()

    def leave_game(self, bot_id: str, game_id: str) -> None:
        pipe = self._redis.pipeline()
        pipe.srem(keys.bot_games(bot_id), game_id)
        pipe.delete(keys.resignation(game_id, bot_id))
        pipe.execute()

    def is_online(self, bot_id: str) -> bool:
        return bool(self._redis.exists(keys.bot_online(bot_id)))

    def gateway_lives(self, wake_key: str, within_s: float = BEAT_WAIT_S) -> bool:
        """Whether the gateway whose wake list is `wake_key` is alive now: True once its
        heartbeat changes (it beat after this call began), False once its beat is gone (the
        gateway died, or lost Redis) or has not changed for `within_s`."""
        beat = keys.gateway_beat(wake_key)
        first = self._redis.get(beat)
        give_up = time.monotonic() + within_s
        while first is not None and time.monotonic() < give_up:
            time.sleep(BEAT_POLL_S)
            now = self._redis.get(beat)
            if now != first:
                return now is not None
        return False

    def presence(self, bot_id: str) -> Presence:
        """Online, or which way it went: a stream that ended releases its session, a gateway
        that died (or lost Redis) leaves it behind while its presence expires."""
        pipe = self._redis.pipeline(transaction=False)
        pipe.exists(keys.bot_online(bot_id))
        pipe.exists(keys.bot_session(bot_id))
        online, claimed = pipe.execute()
        if online:
            return Presence.ONLINE
        return Presence.GATEWAY_LOST if claimed else Presence.DISCONNECTED


@dataclass(frozen=True, slots=True)
class Asked:
    """What `ask` got: the reply, as `wait_reply` returns it, and the wake list of the gateway
    that held the bot's stream when the request went out (None: no gateway held it)."""

    got: tuple[str, bytes] | None
    holder: str | None


def _deliver_keys(bot_id: str) -> list[str]:
    return [keys.bot_inbox(bot_id), keys.bot_gateway(bot_id)]


def _request_args(
    bot_id: str, request_id: str, message: bytes, ttl_s: int
) -> list[str | bytes | int]:
    """KEYS and ARGV of `_REQUEST`."""
    owned = [keys.request_owner(request_id), keys.bot_pending(bot_id)]
    return [*_deliver_keys(bot_id), *owned, message, bot_id, WAKE_TTL_S, request_id, ttl_s]


class GatewayRelay:
    """The gateway's side, asynchronous: a fixed number of connections however many bots.
    Scripts in pipelines go as EVAL, as the runner's do (one round trip per pipeline)."""

    def __init__(self, client: aioredis.Redis, gateway_id: str) -> None:
        self._redis, self.gateway_id = client, gateway_id
        self.wake_key = keys.gateway_wake(gateway_id)
        self._beat_key, self._beats = keys.gateway_beat(self.wake_key), 0
        self._started = time.time()
        self._release = client.register_script(_RELEASE)
        self._answers = AnswerBatches(client)

    async def claim(self, bot_id: str, session: str, online_ttl_s: int) -> None:
        """Make `session` on this gateway the bot's one live stream; older streams see it."""
        pipe = self._redis.pipeline()
        pipe.set(keys.bot_session(bot_id), session)
        pipe.set(keys.bot_gateway(bot_id), self.wake_key)
        pipe.set(keys.bot_online(bot_id), session, ex=online_ttl_s)
        await pipe.execute()

    async def refresh(self, sessions: Mapping[str, str], online_ttl_s: int) -> list[str]:
        """Beat this gateway's heartbeat and refresh the presence of these (bot id -> session)
        streams; the ids replaced since. Runners read the beat before charging a bot a missed
        deadline: one that is gone means the bot's gateway is, and the game is void."""
        self._beats += 1
        pipe = self._redis.pipeline(transaction=False)
        # Listed once (NX: no write while listed, so an idle gateway writes only its beat);
        # listed again at the next beat if another gateway forgot it in an outage.
        pipe.zadd(keys.gateways(), {self.gateway_id: self._started}, nx=True)
        pipe.set(self._beat_key, self._beats, ex=online_ttl_s)
        for bot_id, session in sessions.items():
            presence = [keys.bot_session(bot_id), keys.bot_online(bot_id), keys.bot_gateway(bot_id)]
            pipe.eval(_REFRESH, 3, *presence, session, online_ttl_s, self.wake_key)
        current = (await pipe.execute())[2:]
        return [bot_id for bot_id, ok in zip(sessions, current, strict=True) if not ok]

    async def ended_by(self, bot_id: str) -> StreamEnd | None:
        """Why the bot's stream was taken from it: the arena ended it (`RunnerRelay.end_stream`),
        or None when a newer connection of the bot took over."""
        session = await self._redis.get(keys.bot_session(bot_id))
        why = "" if session is None else as_text(session).partition("-")[0]
        return next((end for end in StreamEnd if end.value == why), None)

    async def leave(self) -> None:
        """This gateway stops: it is no longer one the arena expects to beat."""
        await self._redis.zrem(keys.gateways(), self.gateway_id)

    async def forget_silent(self) -> None:
        """Unlist the gateways whose beat is gone (died without leaving; this one may be their
        replacement). One still alive lists itself again at its next beat."""
        found = cast(list[bytes], await self._redis.zrange(keys.gateways(), 0, -1))
        listed = [as_text(g) for g in found]
        pipe = self._redis.pipeline(transaction=False)
        for gateway in listed:
            pipe.exists(keys.gateway_beat(keys.gateway_wake(gateway)))
        silent = [g for g, beating in zip(listed, await pipe.execute(), strict=True) if not beating]
        if silent:
            await self._redis.zrem(keys.gateways(), *silent)

    async def release(self, bot_id: str, session: str) -> None:
        """The stream ended: the bot is offline unless a newer stream took over."""
        await self._release(
            keys=[keys.bot_session(bot_id), keys.bot_online(bot_id), keys.bot_gateway(bot_id)],
            args=[session],
        )

    async def pending(self, bot_id: str) -> list[bytes]:
        """Decision requests still waiting for this bot (to resend after a reconnect)."""
        found = await self._redis.hgetall(keys.bot_pending(bot_id))
        return [as_bytes(found[request_id]) for request_id in sorted(found)]

    async def woken(self, timeout_s: float) -> str | None:
        """The id of a bot with new messages, waiting up to `timeout_s` for one."""
        popped = await self._redis.blpop([self.wake_key], timeout=timeout_s)
        return None if popped is None else as_text(popped[1])

    async def take(self, sessions: Mapping[str, str], most: int) -> dict[str, list[bytes] | None]:
        """Up to `most` inbox messages per (bot id -> session); None where it was replaced."""
        return (await self.take_woken(sessions, most, 0))[0]

    async def take_woken(
        self, sessions: Mapping[str, str], most: int, wakes: int
    ) -> tuple[dict[str, list[bytes] | None], set[str]]:
        """`take`, and up to `wakes` more woken bot ids in the same round trip."""
        pipe = self._redis.pipeline(transaction=False)
        for bot_id, session in sessions.items():
            pipe.eval(_TAKE, 2, keys.bot_session(bot_id), keys.bot_inbox(bot_id), session, most)
        if wakes:
            pipe.lpop(self.wake_key, wakes)
        results = await pipe.execute() if len(pipe) else []
        woken = results.pop() if wakes else None
        taken = {
            bot_id: None if items == -1 else [as_bytes(item) for item in items]
            for bot_id, items in zip(sessions, results, strict=True)
        }
        return taken, {as_text(bot_id) for bot_id in woken or ()}

    async def answer(self, bot_id: str, request_id: str, reply: bytes) -> Answer:
        """Hand the bot's reply to the runner if it is the first to a request of this bot's."""
        return await self._answers.answer(bot_id, request_id, reply)

    async def is_pending(self, bot_id: str, request_id: str) -> bool:
        return bool(await self._redis.hexists(keys.bot_pending(bot_id), request_id))

    async def resign(self, bot_id: str, game_id: str) -> bool:
        """Pass a resignation to the game's referee; False if the bot is not in that game."""
        if not await self._redis.sismember(keys.bot_games(bot_id), game_id):
            return False
        await self._redis.rpush(keys.resignation(game_id, bot_id), b"1")
        return True
