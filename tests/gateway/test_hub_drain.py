"""A stopping gateway hands the messages left on its wake list back to their bots' inboxes."""

from __future__ import annotations

import asyncio

import redis
import redis.asyncio as aioredis

from arena.gateway.hub import Hub
from arena.store import keys
from arena.store.relay import GatewayRelay, RunnerRelay


def test_messages_left_on_a_stopping_gateways_wake_list_go_back_to_the_inboxes(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    runner = RunnerRelay(redis_client)

    async def scene() -> None:
        relay = GatewayRelay(aioredis.Redis.from_url(redis_server_url), "gw")
        await relay.claim("b1", "s1", online_ttl_s=5)
        runner.notify("b1", b"game started")  # on the wake list itself: the stream is live
        runner.request("b1", "r1", b"decide!", ttl_s=10)
        await relay.release("b1", "s1")  # the stream ended before the gateway popped them
        await Hub(relay).stop()

    asyncio.run(scene())
    assert redis_client.lrange(keys.bot_inbox("b1"), 0, -1) == [b"game started", b"decide!"]
    assert not redis_client.exists(keys.gateway_wake("gw"))
