"""An abort that cuts the gateway's write to a bot short, mid-flight in gRPC, still ends that
stream with its status: the bot is never left waiting for one until its deadline. A write cut
short because the bot does not read ends its stream as orderly as any other abort."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Iterator
from typing import Any, cast

import grpc
import pytest

from arena.gateway import bot_gateway
from arena.gateway.testing import Arena, running_arena
from arena.store.bots import BotRegistry
from arena.store.relay import RunnerRelay
from arena.v1 import bot_pb2, bot_pb2_grpc
from tests.gateway.rawbot import hello


class FirstWriteCutShort:
    """A servicer context whose first write is cut short while gRPC has it in hand, as an
    abort arriving during that write does, and then waits for that abort."""

    def __init__(self, context: Any) -> None:
        self._context, self._cut = context, False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)

    async def write(self, message: Any) -> None:
        if self._cut:
            await self._context.write(message)
            return
        self._cut = True
        write = asyncio.ensure_future(self._context.write(message))
        await asyncio.sleep(0)  # the write is under way in gRPC
        write.cancel()
        await asyncio.Event().wait()  # the abort ends this wait, as it ends a write


def test_a_malformed_message_during_the_first_write_still_gets_its_status(
    monkeypatch: pytest.MonkeyPatch,
    redis_server_url: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    connect = bot_gateway.BotGateway.Connect

    async def cutting_the_first_write(
        gateway: bot_gateway.BotGateway, requests: Any, context: Any
    ) -> None:
        await connect(gateway, requests, cast(bot_gateway.Context, FirstWriteCutShort(context)))

    monkeypatch.setattr(bot_gateway.BotGateway, "Connect", cutting_the_first_write)
    with running_arena(redis_server_url) as arena:
        token = arena.register_bot("garbage")
        metadata: tuple[tuple[str, str | bytes], ...] = (("authorization", f"Bearer {token}"),)
        with grpc.insecure_channel(arena.target) as channel:
            raw = channel.stream_stream(
                "/arena.v1.BotGatewayService/Connect",
                request_serializer=lambda b: b,
                response_deserializer=bot_pb2.ConnectResponse.FromString,
            )
            sent = [hello().SerializeToString(), b"\xff\xff\xff\xff not protobuf"]
            with pytest.raises(grpc.RpcError) as broken:
                list(raw(iter(sent), metadata=metadata, timeout=10))
    assert broken.value.code() is grpc.StatusCode.INVALID_ARGUMENT, broken.value.details()
    assert "not an arena.v1.ConnectRequest" in (broken.value.details() or "")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


class NothingIsRead:
    """A servicer context for a bot that reads nothing: no write ever completes, and the status
    waits behind them for a while, as it does on a stream whose bot has stopped reading."""

    def __init__(self, context: Any) -> None:
        self._context = context

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)

    async def write(self, message: Any) -> None:
        await asyncio.Event().wait()  # the write timeout cuts this short

    async def abort(self, code: grpc.StatusCode, details: str) -> None:
        aborting = asyncio.ensure_future(self._context.abort(code, details))
        await asyncio.sleep(2)  # the bot's ping reaches the reader while the status waits
        await aborting


def _ping_once_released(
    arena: Arena, bot_name: str, call_over: threading.Event
) -> Iterator[bot_pb2.ConnectRequest]:
    yield hello()
    bot = BotRegistry(arena.client).by_name(bot_name)
    assert bot is not None
    relay, deadline = RunnerRelay(arena.client), time.monotonic() + 30
    while not relay.is_online(bot.bot_id) and time.monotonic() < deadline:
        time.sleep(0.01)
    while relay.is_online(bot.bot_id) and time.monotonic() < deadline:
        time.sleep(0.01)  # released: the gateway is ending the stream
    yield bot_pb2.ConnectRequest(ping=bot_pb2.Ping(nonce=1))
    call_over.wait(30)


def test_a_bot_cut_off_for_not_reading_ends_without_an_error_line(
    monkeypatch: pytest.MonkeyPatch,
    redis_server_url: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    connect = bot_gateway.BotGateway.Connect

    async def reading_nothing(gateway: bot_gateway.BotGateway, requests: Any, context: Any) -> None:
        await connect(gateway, requests, cast(bot_gateway.Context, NothingIsRead(context)))

    monkeypatch.setattr(bot_gateway.BotGateway, "Connect", reading_nothing)
    monkeypatch.setattr(bot_gateway, "WRITE_TIMEOUT_S", 0.2)
    call_over = threading.Event()
    with running_arena(redis_server_url) as arena:
        token = arena.register_bot("deaf")
        metadata = (("authorization", f"Bearer {token}"),)
        with grpc.insecure_channel(arena.target) as channel:
            stub = bot_pb2_grpc.BotGatewayServiceStub(channel)
            try:
                call = stub.Connect(
                    _ping_once_released(arena, "deaf", call_over), metadata=metadata, timeout=30
                )
                with pytest.raises(grpc.RpcError) as ended:
                    list(call)
            finally:
                call_over.set()
    assert ended.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED, ended.value.details()
    assert "read your stream" in (ended.value.details() or "")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
