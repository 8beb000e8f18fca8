"""The gateway against a Redis server that goes away and comes back (a private one per test):
streams ride out a restart, health follows Redis, a longer outage ends streams UNAVAILABLE and
the SDK reconnects once Redis is back."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from arena.gateway.testing import running_arena
from arena.referee.referee import Termination
from arena.v1 import arena_pb2
from bots_sdk import Backoff
from bots_sdk.client import Client
from bots_sdk.live_check import wait_until
from tests.bots_sdk.bots import FirstBot
from tests.gateway.conftest import PrivateRedis
from tests.gateway.rawbot import RawBot
from tests.gateway.test_arena_service import list_services, stub
from tests.gateway.test_bot_gateway import connect, status_of

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING
OUTAGE_WAIT_S = 60


def until(condition: Callable[[], bool]) -> bool:
    return wait_until(condition, OUTAGE_WAIT_S)


def health(target: str) -> int:
    with grpc.insecure_channel(target) as channel:
        request = health_pb2.HealthCheckRequest(service="arena.v1.BotGatewayService")
        return int(health_pb2_grpc.HealthStub(channel).Check(request, timeout=10).status)


def test_a_stream_rides_out_a_redis_restart(
    private_redis: PrivateRedis, caplog: pytest.LogCaptureFixture
) -> None:
    with running_arena(private_redis.url) as arena:
        bot = connect(arena, "steady")
        private_redis.stop()
        assert until(lambda: health(arena.target) == NOT_SERVING)
        time.sleep(1.5)  # the outage the stream must ride out (not a wait for a result)
        private_redis.start()
        assert until(lambda: health(arena.target) == SERVING)
        outcome = arena.play_match("steady", "random", games=2)
        assert [o.termination for o in outcome] == [Termination.NORMAL] * 2
        assert len(bot.wait_for("game_over", count=2)) == 2
        assert bot.error is None and not bot.ended.is_set()  # the same stream all along
        bot.close()
    said = [r.getMessage() for r in caplog.records if r.name == "arena.gateway"]
    assert len([line for line in said if "unreachable" in line]) == 1  # one line an outage
    assert len([line for line in said if "reachable again" in line]) == 1


def test_a_long_outage_ends_streams_and_refuses_new_ones_unavailable(
    private_redis: PrivateRedis,
) -> None:
    with running_arena(private_redis.url, outage_limit_s=1.0) as arena:
        token = arena.register_bot("patient")
        bot = connect(arena, "waiting")
        private_redis.stop()
        assert status_of(bot, timeout_s=60) is grpc.StatusCode.UNAVAILABLE
        assert "Redis" in (bot.error.details() or "")  # type: ignore[union-attr]
        newcomer = RawBot(arena.target, token).start()
        assert status_of(newcomer) is grpc.StatusCode.UNAVAILABLE
        assert "cannot reach its store (Redis)" in (newcomer.error.details() or "")  # type: ignore[union-attr]
        private_redis.start()
        assert until(lambda: health(arena.target) == SERVING)
        again = RawBot(arena.target, token).start()
        assert again.welcomed.wait(30), again.error
        again.close()


def test_the_sdk_reconnects_after_unavailable(private_redis: PrivateRedis) -> None:
    with running_arena(private_redis.url, outage_limit_s=0.5) as arena:
        token = arena.register_bot("sdk")
        client = Client(FirstBot(), arena.target, token, backoff=Backoff(0.1, 1.0))
        thread = threading.Thread(target=client.run, daemon=True)
        thread.start()
        assert client.connected.wait(30)
        private_redis.stop()
        assert until(lambda: not client.connected.is_set())  # ended UNAVAILABLE
        private_redis.start()
        assert until(lambda: client.sessions == 2 and client.connected.is_set())
        outcome = arena.play_match("sdk", "random", games=1)[0]
        assert outcome.termination is Termination.NORMAL
        assert not client.replaced and thread.is_alive()
        client.stop()
        thread.join(30)


def test_arena_service_and_reflection_answer_unavailable_while_redis_is_down(
    private_redis: PrivateRedis,
) -> None:
    with running_arena(private_redis.url) as arena:
        token = arena.register_bot("caller")
        bearer = (("authorization", f"Bearer {token}"),)
        private_redis.stop()
        channel, service = stub(arena)
        with pytest.raises(grpc.RpcError) as listing:
            service.ListBots(arena_pb2.ListBotsRequest(), metadata=bearer)
        channel.close()
        with pytest.raises(grpc.RpcError) as reflecting:
            list_services(arena, bearer)
        for refused in (listing.value, reflecting.value):
            assert refused.code() is grpc.StatusCode.UNAVAILABLE, refused
            assert "cannot reach its store (Redis)" in (refused.details() or "")
        private_redis.start()
        assert until(lambda: health(arena.target) == SERVING)
        channel, service = stub(arena)
        assert [
            b.name for b in service.ListBots(arena_pb2.ListBotsRequest(), metadata=bearer).bots
        ] == ["caller"]
        channel.close()


def test_health_stays_not_serving_while_redis_is_down_after_streams_ended(
    private_redis: PrivateRedis, caplog: pytest.LogCaptureFixture
) -> None:
    """With no stream left to serve, health still follows a real Redis check: never SERVING
    (nor 'reachable again' in the log) before Redis is."""
    with running_arena(private_redis.url, outage_limit_s=0.5) as arena:
        bot = connect(arena, "ended")
        private_redis.stop()
        assert status_of(bot, timeout_s=60) is grpc.StatusCode.UNAVAILABLE  # streams ended
        polls = []
        for _ in range(20):  # the outage goes on a few seconds more
            polls.append(health(arena.target))
            time.sleep(0.2)
        said_before_restart = [r.getMessage() for r in caplog.records]
        private_redis.start()
        assert until(lambda: health(arena.target) == SERVING)
    assert polls == [NOT_SERVING] * len(polls)
    assert not [line for line in said_before_restart if "reachable again" in line]
