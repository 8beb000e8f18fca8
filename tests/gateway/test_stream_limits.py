"""What one gateway's resources do not depend on: the number of bots it holds (Redis connections)
and what a bot sends without reading (its stream's queue)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import grpc
import pytest

from arena.gateway.bot_gateway import ECHO_CHARS
from arena.gateway.server import RELAY_CONNECTIONS
from arena.gateway.testing import Arena
from arena.referee.referee import Termination
from arena.store.bots import BotRegistry
from arena.store.relay import RunnerRelay
from arena.v1 import bot_pb2, bot_pb2_grpc
from tests.gateway.rawbot import RawBot, hello
from tests.gateway.test_bot_gateway import connect

pytestmark = pytest.mark.timeout(300)
BOTS = 120  # more than redis-py's default pool of 100 connections


def gateway_connections(arena: Arena) -> int:
    name = f"arena-gateway-{arena.gateway.id}"
    return sum(1 for c in arena.client.client_list() if c.get("name") == name)


def test_redis_connections_do_not_grow_with_bots(arena: Arena) -> None:
    tokens = [arena.register_bot(f"many-{n}") for n in range(BOTS)]
    bots = [RawBot(arena.target, token).start() for token in tokens]
    deadline = time.monotonic() + 120
    for bot in bots:
        assert bot.welcomed.wait(max(deadline - time.monotonic(), 0)), bot.error
    relay, registry = RunnerRelay(arena.client), BotRegistry(arena.client)
    named = [registry.by_name(f"many-{n}") for n in range(BOTS)]
    assert all(bot is not None and relay.is_online(bot.bot_id) for bot in named)
    assert 0 < gateway_connections(arena) <= RELAY_CONNECTIONS
    outcomes = [arena.play_match(f"many-{n}", "random", games=1)[0] for n in (0, BOTS - 1)]
    assert [o.termination for o in outcomes] == [Termination.NORMAL] * 2
    assert bots[0].wait_for("game_over") and bots[-1].wait_for("game_over")
    assert gateway_connections(arena) <= RELAY_CONNECTIONS
    for bot in bots:
        bot.close()


def _replies_without_reading(count: int) -> Iterator[bot_pb2.ConnectRequest]:
    yield hello()
    for n in range(count):  # each earns an Error echoing (a bounded part of) the request id
        rid = f"{n}-" + "x" * 1000
        yield bot_pb2.ConnectRequest(action_reply=bot_pb2.ActionReply(request_id=rid))


def test_a_bot_that_does_not_read_is_disconnected_resource_exhausted(arena: Arena) -> None:
    token = arena.register_bot("deaf")
    bot_id = BotRegistry(arena.client).by_name("deaf").bot_id  # type: ignore[union-attr]
    relay = RunnerRelay(arena.client)
    with grpc.insecure_channel(arena.target) as channel:
        stub = bot_pb2_grpc.BotGatewayServiceStub(channel)
        metadata = (("authorization", f"Bearer {token}"),)
        call = stub.Connect(_replies_without_reading(200_000), metadata=metadata)
        deadline = time.monotonic() + 200
        while not relay.is_online(bot_id) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert relay.is_online(bot_id)
        while relay.is_online(bot_id) and time.monotonic() < deadline:
            time.sleep(0.1)  # the gateway ends the stream: the bot is released
        assert not relay.is_online(bot_id), "the gateway kept a bot that does not read"
        received = []
        with pytest.raises(grpc.RpcError) as ended:
            for message in call:  # what was already on its way, then the status
                received.append(message)
        assert ended.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "read your stream" in (ended.value.details() or "")
    errors = [m.error for m in received if m.WhichOneof("message") == "error"]
    assert errors and all(len(e.message) < ECHO_CHARS + 100 for e in errors)
    after = connect(arena, "reader")  # the gateway is fine
    assert arena.play_match("reader", "random", games=1)[0].termination is Termination.NORMAL
    after.close()
