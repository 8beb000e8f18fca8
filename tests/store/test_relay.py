"""The decision relay against a real Redis server: both sides, first reply wins, reconnects."""

from __future__ import annotations

import asyncio

import redis
import redis.asyncio as aioredis

from arena.store.relay import Answer, GatewayRelay, RunnerRelay


def _gateway(url: str) -> GatewayRelay:
    return GatewayRelay(aioredis.Redis.from_url(url))


def test_a_request_reaches_the_bot_and_its_answer_reaches_the_runner(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    runner = RunnerRelay(redis_client)
    runner.request("b1", "r1", b"decide!", ttl_s=10)

    async def gateway_side() -> Answer:
        gateway = _gateway(redis_server_url)
        assert await gateway.next_message("b1", timeout_s=1) == b"decide!"
        return await gateway.answer("b1", "r1", b"action 3")

    assert asyncio.run(gateway_side()) is Answer.ACCEPTED
    assert runner.wait_reply("b1", "g1", "r1", timeout_s=1) == ("reply", b"action 3")


def test_only_the_first_answer_counts_and_strangers_are_refused(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    RunnerRelay(redis_client).request("b1", "r1", b"decide!", ttl_s=10)

    async def answers() -> list[Answer]:
        gateway = _gateway(redis_server_url)
        return [
            await gateway.answer("b2", "r1", b"not mine"),
            await gateway.answer("b1", "nope", b"unknown"),
            await gateway.answer("b1", "r1", b"first"),
            await gateway.answer("b1", "r1", b"second"),
        ]

    assert asyncio.run(answers()) == [
        Answer.NOT_YOURS,
        Answer.UNKNOWN,
        Answer.ACCEPTED,
        Answer.ALREADY_ANSWERED,
    ]
    assert RunnerRelay(redis_client).wait_reply("b1", "g1", "r1", 1) == ("reply", b"first")


def test_a_withdrawn_request_can_no_longer_be_answered(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    runner = RunnerRelay(redis_client)
    runner.request("b1", "r1", b"decide!", ttl_s=10)
    runner.request("b1", "r2", b"decide!", ttl_s=10)
    assert runner.wait_reply("b1", "g1", "r1", timeout_s=0.05) is None
    runner.withdraw("b1", "r1", late=True)
    runner.withdraw("b1", "r2")
    gateway = _gateway(redis_server_url)
    assert asyncio.run(gateway.answer("b1", "r1", b"late")) is Answer.LATE
    assert asyncio.run(_gateway(redis_server_url).answer("b1", "r2", b"x")) is Answer.UNKNOWN


def test_a_resignation_reaches_the_referee_of_that_game_only(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    runner = RunnerRelay(redis_client)
    runner.join_game("b1", "g1")
    runner.request("b1", "r1", b"decide!", ttl_s=10)

    async def resign() -> tuple[bool, bool]:
        gateway = _gateway(redis_server_url)
        return await gateway.resign("b1", "g2"), await gateway.resign("b1", "g1")

    assert asyncio.run(resign()) == (False, True)
    assert runner.wait_reply("b1", "g1", "r1", timeout_s=1) == ("resign", b"1")
    runner.leave_game("b1", "g1")
    assert not redis_client.sismember("arena:bot:b1:games", "g1")


def test_pending_requests_are_offered_again_after_a_reconnect(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    runner = RunnerRelay(redis_client)
    runner.request("b1", "r1", b"one", ttl_s=10)
    runner.request("b1", "r2", b"two", ttl_s=10)

    async def reconnect() -> list[bytes]:
        gateway = _gateway(redis_server_url)
        await gateway.answer("b1", "r1", b"done")
        return await gateway.pending("b1")

    assert asyncio.run(reconnect()) == [b"two"]


def test_a_newer_session_replaces_the_older_one(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    async def sessions() -> tuple[bool, bool, bool, bool]:
        gateway = _gateway(redis_server_url)
        await gateway.claim("b1", "old", online_ttl_s=5)
        await gateway.claim("b1", "new", online_ttl_s=5)
        old_current = await gateway.still_current("b1", "old", 5)
        new_current = await gateway.still_current("b1", "new", 5)
        await gateway.release("b1", "old")  # a stale stream ending must not log the bot out
        online_after_stale = RunnerRelay(redis_client).is_online("b1")
        await gateway.release("b1", "new")
        return (
            old_current,
            new_current,
            online_after_stale,
            RunnerRelay(redis_client).is_online("b1"),
        )

    assert asyncio.run(sessions()) == (False, True, True, False)
