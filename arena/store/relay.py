"""The decision relay between game runners and gateways, through Redis (ARCHITECTURE.md step 3-4).

A runner (in a worker) sends a bot a serialized message by pushing it on the bot's inbox; a
decision request is also kept in the bot's pending hash, so that a bot that reconnects gets
it again. The gateway holding the bot's live stream pops the inbox and forwards; the bot's
answer goes back through `answer`, which accepts the first reply to a pending request only.
Messages are opaque bytes here: the relay does not know protobuf.
"""

from __future__ import annotations

from enum import IntEnum

import redis
import redis.asyncio as aioredis

from arena.store import keys
from arena.store.values import as_bytes, as_text

REPLY_TTL_S = 60  # an answer nobody collects is dropped after this long


class Answer(IntEnum):
    ACCEPTED = 1
    UNKNOWN = 0  # no such request, or it has expired
    NOT_YOURS = -1  # the request was sent to another bot
    ALREADY_ANSWERED = -2
    LATE = -3  # the deadline passed and the move was played for the bot


# First reply wins, atomically: check the owner, drop the pending entry, hand the reply over.
_ANSWER = """
local owner = redis.call('GET', KEYS[1])
if not owner then return 0 end
if owner == 'late:' .. ARGV[1] then return -3 end
if owner ~= ARGV[1] then return -1 end
if redis.call('HDEL', KEYS[2], ARGV[2]) == 0 then return -2 end
redis.call('RPUSH', KEYS[3], ARGV[3])
redis.call('EXPIRE', KEYS[3], ARGV[4])
return 1
"""


class RunnerRelay:
    """The runner's side: synchronous, as RQ jobs are."""

    def __init__(self, client: redis.Redis) -> None:
        self._redis = client

    def notify(self, bot_id: str, message: bytes) -> None:
        """A message that needs no answer (game started, game over)."""
        self._redis.rpush(keys.bot_inbox(bot_id), message)

    def request(self, bot_id: str, request_id: str, message: bytes, ttl_s: int) -> None:
        """Send a decision request; it stays pending until answered, withdrawn or expired."""
        pipe = self._redis.pipeline()
        pipe.set(keys.request_owner(request_id), bot_id, ex=ttl_s)
        pipe.hset(keys.bot_pending(bot_id), request_id, message)
        pipe.rpush(keys.bot_inbox(bot_id), message)
        pipe.execute()

    def wait_reply(
        self, bot_id: str, game_id: str, request_id: str, timeout_s: float
    ) -> tuple[str, bytes] | None:
        """("reply", bytes) or ("resign", b"") from the bot, or None after `timeout_s`."""
        reply, resign = keys.reply(request_id), keys.resignation(game_id, bot_id)
        popped = self._redis.blpop([reply, resign], timeout=max(timeout_s, 0.001))
        if popped is None:
            return None
        return ("reply" if as_text(popped[0]) == reply else "resign"), as_bytes(popped[1])

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
        self._redis.sadd(keys.bot_games(bot_id), game_id)

    def leave_game(self, bot_id: str, game_id: str) -> None:
        pipe = self._redis.pipeline()
        pipe.srem(keys.bot_games(bot_id), game_id)
        pipe.delete(keys.resignation(game_id, bot_id))
        pipe.execute()

    def is_online(self, bot_id: str) -> bool:
        return bool(self._redis.exists(keys.bot_online(bot_id)))


class GatewayRelay:
    """The gateway's side: asynchronous, one task per live bot stream."""

    def __init__(self, client: aioredis.Redis) -> None:
        self._redis = client
        self._answer = client.register_script(_ANSWER)

    async def claim(self, bot_id: str, session: str, online_ttl_s: int) -> None:
        """Make `session` the bot's one live stream; an older stream sees it and stops."""
        pipe = self._redis.pipeline()
        pipe.set(keys.bot_session(bot_id), session)
        pipe.set(keys.bot_online(bot_id), session, ex=online_ttl_s)
        await pipe.execute()

    async def still_current(self, bot_id: str, session: str, online_ttl_s: int) -> bool:
        """Whether `session` is still the bot's live stream; if so, refresh its presence."""
        current = await self._redis.get(keys.bot_session(bot_id))
        if current is None or as_text(current) != session:
            return False
        await self._redis.set(keys.bot_online(bot_id), session, ex=online_ttl_s)
        return True

    async def release(self, bot_id: str, session: str) -> None:
        """The stream ended: the bot is offline unless a newer stream took over."""
        current = await self._redis.get(keys.bot_session(bot_id))
        if current is not None and as_text(current) == session:
            await self._redis.delete(keys.bot_online(bot_id), keys.bot_session(bot_id))

    async def pending(self, bot_id: str) -> list[bytes]:
        """Decision requests still waiting for this bot (to resend after a reconnect)."""
        found = await self._redis.hgetall(keys.bot_pending(bot_id))
        return [as_bytes(found[request_id]) for request_id in sorted(found)]

    async def next_message(self, bot_id: str, timeout_s: float) -> bytes | None:
        popped = await self._redis.blpop([keys.bot_inbox(bot_id)], timeout=timeout_s)
        return None if popped is None else as_bytes(popped[1])

    async def put_back(self, bot_id: str, message: bytes) -> None:
        """Return a message popped by a stream that turned out to be stale."""
        await self._redis.lpush(keys.bot_inbox(bot_id), message)

    async def is_pending(self, bot_id: str, request_id: str) -> bool:
        return bool(await self._redis.hexists(keys.bot_pending(bot_id), request_id))

    async def resign(self, bot_id: str, game_id: str) -> bool:
        """Pass a resignation to the game's referee; False if the bot is not in that game."""
        if not await self._redis.sismember(keys.bot_games(bot_id), game_id):
            return False
        await self._redis.rpush(keys.resignation(game_id, bot_id), b"1")
        return True

    async def answer(self, bot_id: str, request_id: str, reply: bytes) -> Answer:
        owner, pending = keys.request_owner(request_id), keys.bot_pending(bot_id)
        code = await self._answer(
            keys=[owner, pending, keys.reply(request_id)],
            args=[bot_id, request_id, reply, REPLY_TTL_S],
        )
        return Answer(int(code))
