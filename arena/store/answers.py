"""The bots' replies to decision requests, on the gateway's side of the relay (`arena.store.relay`):
the first reply to a pending request of the bot's own is handed to the runner, atomically, and
replies that come while a batch is on its way to Redis go together in the next one."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from enum import IntEnum

import redis.asyncio as aioredis

from arena.store import keys

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


class AnswerBatches:
    """One gateway's replies on their way to Redis: a batch at a time, one round trip each."""

    def __init__(self, client: aioredis.Redis) -> None:
        self._redis = client
        self._answers: list[_Answering] = []  # waiting for the next batch
        self._answering: asyncio.Task[None] | None = None  # the batch on its way, if any

    async def answer(self, bot_id: str, request_id: str, reply: bytes) -> Answer:
        """Hand the bot's reply to the runner if it is the first to a request of this bot's.
        Replies that come while a batch is on its way to Redis go together in the next one: one
        round trip for many streams' replies, each still checked on its own, atomically."""
        answered: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._answers.append(_Answering(bot_id, request_id, reply, answered))
        if self._answering is None:
            self._answering = asyncio.create_task(self._send_answers())
        return Answer(int(await answered))

    async def _send_answers(self) -> None:
        try:
            while self._answers:
                batch, self._answers = self._answers, []
                await self._send_batch(batch)
        finally:
            self._answering = None
            for left in self._answers:  # only when cancelled (the gateway stops)
                if not left.answered.done():
                    left.answered.cancel()

    async def _send_batch(self, batch: list[_Answering]) -> None:
        pipe = self._redis.pipeline(transaction=False)
        for one in batch:
            owner, reply = keys.request_owner(one.request_id), keys.reply(one.request_id)
            pending = keys.bot_pending(one.bot_id)
            args: list[str | bytes | int] = [one.bot_id, one.request_id, one.reply, REPLY_TTL_S]
            pipe.eval(_ANSWER, 3, owner, pending, reply, *args)
        try:
            codes = await pipe.execute(raise_on_error=False)
        except BaseException as error:  # every reply of the batch gets it (hub.call retries)
            for one in batch:
                if not one.answered.done():
                    one.answered.set_exception(error)
            if isinstance(error, asyncio.CancelledError):
                raise
            return
        for one, code in zip(batch, codes, strict=True):
            if one.answered.done():  # its stream ended meanwhile
                continue
            if isinstance(code, Exception):
                one.answered.set_exception(code)
            else:
                one.answered.set_result(int(code))


@dataclass(frozen=True, slots=True)
class _Answering:
    bot_id: str
    request_id: str
    reply: bytes
    answered: asyncio.Future[int]
