"""BotGatewayService: holds each bot's one live stream and relays between it and Redis.

Per stream, three coroutines: the handler writes every outgoing message (gRPC wants one
writer), a reader handles what the bot sends, and a pump forwards the bot's inbox from Redis.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import grpc
import redis.asyncio as aioredis

from arena import __version__, codec
from arena.gateway.auth import authenticate_bot, bearer_token
from arena.store import keys
from arena.store.bots import BotInfo
from arena.store.relay import Answer, GatewayRelay
from arena.v1 import bot_pb2, bot_pb2_grpc

log = logging.getLogger("arena.gateway")

HELLO_TIMEOUT_S = 10.0
ONLINE_TTL_S = 3  # presence expires this long after a gateway stops refreshing it
SESSION_CHECK_S = 0.5  # how often a stream checks it has not been replaced
RECENT_REQUESTS = 1024  # request ids a stream remembers, to never send one twice

_ANSWER_ERRORS = {
    Answer.UNKNOWN: (bot_pb2.ERROR_CODE_UNKNOWN_REQUEST, "unknown request id {rid}"),
    Answer.NOT_YOURS: (bot_pb2.ERROR_CODE_UNKNOWN_REQUEST, "request {rid} was sent to another bot"),
    Answer.ALREADY_ANSWERED: (
        bot_pb2.ERROR_CODE_UNKNOWN_REQUEST,
        "request {rid} is already answered",
    ),
    Answer.LATE: (
        bot_pb2.ERROR_CODE_DEADLINE_EXCEEDED,
        "the reply to {rid} came after its deadline; a random legal move was played for you",
    ),
}


@dataclass(frozen=True)
class _Abort:
    code: grpc.StatusCode
    details: str


_CLOSE = object()  # the bot closed its side: end the call normally


@dataclass
class _Stream:
    bot: BotInfo
    session: str
    outgoing: asyncio.Queue[Any] = field(default_factory=asyncio.Queue)
    sent_requests: dict[str, None] = field(default_factory=dict)  # recent ones, oldest first
    aborting: bool = False  # once set, the reader's failure is the abort's echo, not a fault

    async def abort(self, code: grpc.StatusCode, details: str) -> None:
        self.aborting = True
        await self.outgoing.put(_Abort(code, details))


class BotGateway(bot_pb2_grpc.BotGatewayServiceServicer):
    def __init__(self, client: aioredis.Redis) -> None:
        self._redis = client
        self._relay = GatewayRelay(client)

    async def Connect(
        self,
        request_iterator: AsyncIterator[bot_pb2.ConnectRequest],
        context: grpc.aio.ServicerContext[bot_pb2.ConnectRequest, bot_pb2.ConnectResponse],
    ) -> AsyncIterator[bot_pb2.ConnectResponse]:
        bot = await self._authenticate(context)
        hello = await self._hello(request_iterator, context)
        if isinstance(hello, bot_pb2.Error):
            yield bot_pb2.ConnectResponse(error=hello)
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION, hello.message)
        stream = _Stream(bot, secrets.token_hex(8))
        await self._relay.claim(bot.bot_id, stream.session, ONLINE_TTL_S)
        # What the bot says it plays: tournaments, matches and ladders schedule it accordingly.
        await self._redis.hset(keys.bot(bot.bot_id), "games", ",".join(hello.games))
        log.info("bot %s (%s) connected, session %s", bot.name, bot.bot_id, stream.session)
        yield bot_pb2.ConnectResponse(
            welcome=bot_pb2.Welcome(
                bot_id=bot.bot_id,
                bot_name=bot.name,
                server_version=__version__,
                protocol_version=codec.PROTOCOL_VERSION,
            )
        )
        for payload in await self._relay.pending(bot.bot_id):
            await self._forward(stream, payload)
        tasks = [
            asyncio.create_task(self._read(stream, request_iterator)),
            asyncio.create_task(self._pump(stream)),
        ]
        try:
            while (item := await stream.outgoing.get()) is not _CLOSE:
                if isinstance(item, _Abort):
                    await context.abort(item.code, item.details)
                yield item
        finally:
            for task in tasks:
                task.cancel()
            await self._relay.release(bot.bot_id, stream.session)
            log.info("bot %s (%s) disconnected, session %s", bot.name, bot.bot_id, stream.session)

    async def _authenticate(self, context: grpc.aio.ServicerContext[Any, Any]) -> BotInfo:
        token = bearer_token(context.invocation_metadata())
        if token is None:
            await context.abort(
                grpc.StatusCode.UNAUTHENTICATED,
                "missing token: send the metadata 'authorization: Bearer <token>'",
            )
        bot = await authenticate_bot(self._redis, token) if token else None
        if bot is None:
            await context.abort(grpc.StatusCode.UNAUTHENTICATED, "unknown token")
        assert bot is not None  # abort raises
        return bot

    async def _hello(
        self,
        requests: AsyncIterator[bot_pb2.ConnectRequest],
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> bot_pb2.Hello | bot_pb2.Error:
        """The bot's Hello, or the Error to send before closing for a wrong version."""
        try:
            first = await asyncio.wait_for(anext(requests), HELLO_TIMEOUT_S)
        except TimeoutError:
            await context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "no Hello within 10 s")
        except StopAsyncIteration:
            await context.abort(
                grpc.StatusCode.FAILED_PRECONDITION, "the stream ended before Hello"
            )
        if first.WhichOneof("message") != "hello":
            await context.abort(
                grpc.StatusCode.FAILED_PRECONDITION, "the first message must be Hello"
            )
        if first.hello.protocol_version != codec.PROTOCOL_VERSION:
            return bot_pb2.Error(
                code=bot_pb2.ERROR_CODE_PROTOCOL_VERSION_UNSUPPORTED,
                message=(
                    f"protocol version {first.hello.protocol_version} is not supported: "
                    f"this arena speaks {codec.PROTOCOL_VERSION}"
                ),
            )
        return first.hello

    async def _read(self, stream: _Stream, requests: AsyncIterator[bot_pb2.ConnectRequest]) -> None:
        try:
            async for request in requests:
                await self._handle(stream, request)
        except asyncio.CancelledError:
            raise
        except grpc.RpcError:
            pass  # the bot's side broke off; ending the call below is all there is to do
        except Exception:  # a bug here must end this stream, not the server
            if stream.aborting:
                return  # grpc's AbortError reaching the reader after our own abort
            log.exception("stream of bot %s failed", stream.bot.name)
            await stream.abort(grpc.StatusCode.INTERNAL, "the gateway failed")
            return
        await stream.outgoing.put(_CLOSE)

    async def _handle(self, stream: _Stream, request: bot_pb2.ConnectRequest) -> None:
        kind = request.WhichOneof("message")
        if kind == "action_reply":
            await self._reply(stream, request.action_reply)
        elif kind == "ping":
            await stream.outgoing.put(
                bot_pb2.ConnectResponse(pong=bot_pb2.Pong(nonce=request.ping.nonce))
            )
        elif kind == "resign":
            if not await self._relay.resign(stream.bot.bot_id, request.resign.game_id):
                await self._error(
                    stream,
                    bot_pb2.ERROR_CODE_UNKNOWN_GAME,
                    f"you are not playing game {request.resign.game_id!r}",
                )
        else:
            what = "a second Hello" if kind == "hello" else "an empty message"
            await self._error(stream, bot_pb2.ERROR_CODE_PROTOCOL_VIOLATION, f"unexpected {what}")

    async def _reply(self, stream: _Stream, reply: bot_pb2.ActionReply) -> None:
        rid = reply.request_id
        answer = await self._relay.answer(stream.bot.bot_id, rid, reply.SerializeToString())
        if answer is not Answer.ACCEPTED:
            code, template = _ANSWER_ERRORS[answer]
            await self._error(stream, code, template.format(rid=repr(rid)), rid)

    async def _error(
        self, stream: _Stream, code: bot_pb2.ErrorCode.ValueType, message: str, rid: str = ""
    ) -> None:
        error = bot_pb2.Error(code=code, message=message, request_id=rid)
        await stream.outgoing.put(bot_pb2.ConnectResponse(error=error))

    async def _pump(self, stream: _Stream) -> None:
        """Forward the bot's inbox until a newer connection of the same bot takes over."""
        bot_id = stream.bot.bot_id
        loop = asyncio.get_running_loop()
        checked = loop.time()
        while True:
            payload = await self._relay.next_message(bot_id, SESSION_CHECK_S)
            if payload is None or loop.time() - checked >= SESSION_CHECK_S:
                checked = loop.time()
                if not await self._relay.still_current(bot_id, stream.session, ONLINE_TTL_S):
                    if payload is not None:
                        await self._relay.put_back(bot_id, payload)
                    await stream.abort(
                        grpc.StatusCode.ABORTED, "replaced by a newer connection of this bot"
                    )
                    return
            if payload is not None:
                await self._forward(stream, payload)

    async def _forward(self, stream: _Stream, payload: bytes) -> None:
        message = bot_pb2.ConnectResponse.FromString(payload)
        if message.WhichOneof("message") == "decision_request":
            rid = message.decision_request.request_id
            if rid in stream.sent_requests:  # resent on connect and still in the inbox
                return
            stream.sent_requests[rid] = None
            if len(stream.sent_requests) > RECENT_REQUESTS:
                del stream.sent_requests[next(iter(stream.sent_requests))]
        await stream.outgoing.put(message)
