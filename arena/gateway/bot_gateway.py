"""BotGatewayService: holds each bot's one live stream and relays between it and Redis.

Per stream, the handler writes every outgoing message (gRPC wants one writer) and a reader task
handles what the bot sends. What runners send comes through the gateway's hub (hub.py), which
serves every stream of this gateway from Redis with a fixed number of connections.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import AsyncIterator
from typing import NoReturn

import grpc
import redis
import redis.asyncio as aioredis
from google.protobuf.message import DecodeError

from arena import __version__, codec
from arena.gateway.auth import authenticate_bot, bearer_token
from arena.gateway.hub import CLOSE, ONLINE_TTL_S, REDIS_DOWN, UNREACHABLE, Abort, Hub, Stream
from arena.store import keys
from arena.store.answers import Answer
from arena.store.bots import BotInfo
from arena.v1 import bot_pb2

log = logging.getLogger("arena.gateway")

HELLO_TIMEOUT_S = 10.0
WRITE_TIMEOUT_S = 10.0  # a write the bot has not made room for in this long: it is not reading
ECHO_CHARS = 128  # how much of a bot's own text an error message quotes back
MAX_ID_CHARS = 256  # longer request or game ids are none of ours: refused without asking Redis
LOG_EVERY_S = 10.0  # at most one line per this long about malformed messages

NOT_READING = Abort(grpc.StatusCode.RESOURCE_EXHAUSTED, "you are not reading: read your stream")

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

Context = grpc.aio.ServicerContext[bot_pb2.ConnectRequest | None, bot_pb2.ConnectResponse]
Requests = AsyncIterator[bot_pb2.ConnectRequest | None]


def parse_request(data: bytes) -> bot_pb2.ConnectRequest | None:
    """The deserializer the method is registered with: None for bytes that are not a
    ConnectRequest, so the handler answers INVALID_ARGUMENT instead of gRPC failing INTERNAL."""
    try:
        return bot_pb2.ConnectRequest.FromString(data)
    except DecodeError:
        return None


def serialize_response(message: bot_pb2.ConnectResponse | bytes) -> bytes:
    """What the runners send is already serialized (hub.Stream.forward): sent as it is."""
    return message if isinstance(message, bytes) else message.SerializeToString()


def add_to_server(gateway: BotGateway, server: grpc.aio.Server) -> None:
    connect = grpc.stream_stream_rpc_method_handler(
        gateway.Connect,
        request_deserializer=parse_request,
        response_serializer=serialize_response,
    )
    service = bot_pb2.DESCRIPTOR.services_by_name["BotGatewayService"].full_name
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(service, {"Connect": connect}),)
    )


class _Malformed:
    """One log line per LOG_EVERY_S for malformed messages, however many bots send them."""

    def __init__(self) -> None:
        self._last, self._unlogged = 0.0, 0

    def seen(self, bot: str) -> None:
        self._unlogged += 1
        if time.monotonic() - self._last >= LOG_EVERY_S:
            log.warning(
                "malformed message from bot %s (%d in all since the last such line): "
                "INVALID_ARGUMENT",
                bot,
                self._unlogged,
            )
            self._last, self._unlogged = time.monotonic(), 0


def _echo(text: str) -> str:
    shown = text if len(text) <= ECHO_CHARS else text[:ECHO_CHARS] + "…"
    return repr(shown)


class BotGateway:
    def __init__(self, client: aioredis.Redis, hub: Hub) -> None:
        self._redis, self._hub, self._relay = client, hub, hub.relay
        self._malformed = _Malformed()

    async def Connect(self, requests: Requests, context: Context) -> None:
        bot = await self._authenticate(context)
        hello = await self._hello(requests, context)
        if isinstance(hello, bot_pb2.Error):
            await context.write(bot_pb2.ConnectResponse(error=hello))
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION, hello.message)
        stream = Stream(bot.bot_id, bot.name, secrets.token_hex(8))
        try:
            await self._open(bot, hello, stream)
            pending = await self._relay.pending(bot.bot_id)
        except REDIS_DOWN:
            await self._relay_gone(stream)
            await context.abort(grpc.StatusCode.UNAVAILABLE, UNREACHABLE)
        log.info("bot %s (%s) connected, session %s", bot.name, bot.bot_id, stream.session)
        for payload in pending:
            stream.forward(payload)
        self._hub.poke(bot.bot_id)  # what was queued before this stream claimed the bot
        # Headers on their own: an abort cutting the first write short (a bot whose next message
        # is malformed) would otherwise leave gRPC resending them with the status, which it
        # refuses, and the bot would get no status at all.
        await context.send_initial_metadata(())
        reader = asyncio.create_task(self._read(stream, requests))
        try:
            await self._write(stream, context)
        finally:
            reader.cancel()
            await self._relay_gone(stream)
            log.info("bot %s (%s) disconnected, session %s", bot.name, bot.bot_id, stream.session)

    async def _open(self, bot: BotInfo, hello: bot_pb2.Hello, stream: Stream) -> None:
        stream.send(
            bot_pb2.ConnectResponse(
                welcome=bot_pb2.Welcome(
                    bot_id=bot.bot_id,
                    bot_name=bot.name,
                    server_version=__version__,
                    protocol_version=codec.PROTOCOL_VERSION,
                )
            )
        )  # first in the queue: the hub may deliver as soon as the stream is added
        await self._relay.claim(bot.bot_id, stream.session, ONLINE_TTL_S)
        self._hub.add(stream)
        # What the bot says it plays: tournaments, matches and ladders schedule it accordingly.
        # Its version is shown on the web site's bots page.
        await self._redis.hset(
            keys.bot(bot.bot_id),
            mapping={"games": ",".join(hello.games), "version": hello.bot_version},
        )

    async def _relay_gone(self, stream: Stream) -> None:
        if stream.released:
            return
        stream.released = True
        self._hub.remove(stream)
        try:
            await self._relay.release(stream.bot_id, stream.session)
        except redis.RedisError as error:  # its presence expires; runners see the gateway lost
            log.debug("could not release bot %s: %s", stream.name, error)

    async def _write(self, stream: Stream, context: Context) -> None:
        while (item := await stream.outgoing.get()) is not CLOSE:
            if isinstance(item, Abort):
                await self._end(stream, context, item)
            try:
                async with asyncio.timeout(WRITE_TIMEOUT_S) as stream.writing:
                    await context.write(item)
            except TimeoutError:
                await self._end(stream, context, stream.ending or NOT_READING)
            finally:
                stream.writing = None

    async def _end(self, stream: Stream, context: Context, ending: Abort) -> NoReturn:
        # Recorded first: the reader, finding the call aborted under it, then ends quietly
        # instead of taking the abort for a failure of its own.
        if stream.ending is None:
            stream.ending = ending
        # Released next: the status waits behind what the bot has not read, maybe for ever.
        await self._relay_gone(stream)
        await context.abort(ending.code, ending.details)
        raise AssertionError("abort raises")

    async def _authenticate(self, context: Context) -> BotInfo:
        token = bearer_token(context.invocation_metadata())
        if token is None:
            await context.abort(
                grpc.StatusCode.UNAUTHENTICATED,
                "missing token: send the metadata 'authorization: Bearer <token>'",
            )
        try:
            bot = await authenticate_bot(self._redis, token) if token else None
        except REDIS_DOWN:
            await context.abort(grpc.StatusCode.UNAVAILABLE, UNREACHABLE)
        if bot is None:
            await context.abort(grpc.StatusCode.UNAUTHENTICATED, "unknown token")
        assert bot is not None  # abort raises
        return bot

    async def _hello(self, requests: Requests, context: Context) -> bot_pb2.Hello | bot_pb2.Error:
        """The bot's Hello, or the Error to send before closing for a wrong version."""
        try:
            first = await asyncio.wait_for(anext(requests), HELLO_TIMEOUT_S)
        except TimeoutError:
            await context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "no Hello within 10 s")
        except StopAsyncIteration:
            await context.abort(
                grpc.StatusCode.FAILED_PRECONDITION, "the stream ended before Hello"
            )
        if first is None:
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT, "the first message is not a ConnectRequest"
            )
        assert first is not None  # abort raises
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

    async def _read(self, stream: Stream, requests: Requests) -> None:
        try:
            async for request in requests:
                if request is None:
                    self._malformed.seen(stream.name)
                    stream.abort(
                        grpc.StatusCode.INVALID_ARGUMENT,
                        "a message on this stream is not an arena.v1.ConnectRequest",
                    )
                    return
                await self._handle(stream, request)
        except asyncio.CancelledError:
            raise
        except grpc.RpcError:
            pass  # the bot's side broke off; ending the call below is all there is to do
        except REDIS_DOWN as error:
            log.warning(
                "bot %s: Redis unreachable (%s): stream ended UNAVAILABLE", stream.name, error
            )
            stream.abort(grpc.StatusCode.UNAVAILABLE, UNREACHABLE)
            return
        except Exception:  # a bug here must end this stream, not the server
            if stream.ending is not None:
                return  # grpc's AbortError reaching the reader after our own abort
            log.exception("stream of bot %s failed", stream.name)
            stream.abort(grpc.StatusCode.INTERNAL, "the gateway failed")
            return
        stream.send(CLOSE)

    async def _handle(self, stream: Stream, request: bot_pb2.ConnectRequest) -> None:
        kind = request.WhichOneof("message")
        if kind == "action_reply":
            await self._reply(stream, request.action_reply)
        elif kind == "ping":
            stream.send(bot_pb2.ConnectResponse(pong=bot_pb2.Pong(nonce=request.ping.nonce)))
        elif kind == "resign":
            await self._resign(stream, request.resign.game_id)
        else:
            what = "a second Hello" if kind == "hello" else "an empty message"
            self._error(stream, bot_pb2.ERROR_CODE_PROTOCOL_VIOLATION, f"unexpected {what}")

    async def _resign(self, stream: Stream, game_id: str) -> None:
        if len(game_id) > MAX_ID_CHARS or not await self._hub.call(
            lambda: self._relay.resign(stream.bot_id, game_id)
        ):
            message = f"you are not playing game {_echo(game_id)}"
            self._error(stream, bot_pb2.ERROR_CODE_UNKNOWN_GAME, message)

    async def _reply(self, stream: Stream, reply: bot_pb2.ActionReply) -> None:
        rid, payload = reply.request_id, reply.SerializeToString()
        if len(rid) > MAX_ID_CHARS:
            answer = Answer.UNKNOWN
        else:
            answer = await self._hub.call(lambda: self._relay.answer(stream.bot_id, rid, payload))
        if answer is not Answer.ACCEPTED:
            code, template = _ANSWER_ERRORS[answer]
            echoed = rid if len(rid) <= ECHO_CHARS else ""
            self._error(stream, code, template.format(rid=_echo(rid)), echoed)

    def _error(
        self, stream: Stream, code: bot_pb2.ErrorCode.ValueType, message: str, rid: str = ""
    ) -> None:
        error = bot_pb2.Error(code=code, message=message, request_id=rid)
        stream.send(bot_pb2.ConnectResponse(error=error))
