"""An abort that cuts the gateway's write to a bot short, mid-flight in gRPC, still ends that
stream with its status: the bot is never left waiting for one until its deadline."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, cast

import grpc
import pytest

from arena.gateway import bot_gateway
from arena.gateway.testing import running_arena
from arena.v1 import bot_pb2
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
