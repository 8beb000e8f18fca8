"""The decision relay against a real Redis server: both sides, first reply wins, reconnects."""

from __future__ import annotations

import asyncio
import concurrent.futures

import redis
import redis.asyncio as aioredis

from arena.store import keys
from arena.store.answers import Answer
from arena.store.relay import GAMES_TTL_S, GatewayRelay, Presence, RunnerRelay


def _gateway(url: str, gateway_id: str = "gw") -> GatewayRelay:
    return GatewayRelay(aioredis.Redis.from_url(url), gateway_id)


def test_a_request_reaches_the_bot_and_its_answer_reaches_the_runner(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    runner = RunnerRelay(redis_client)

    async def claim() -> None:
        await _gateway(redis_server_url).claim("b1", "s1", online_ttl_s=5)

    asyncio.run(claim())
    runner.request("b1", "r1", b"decide!", ttl_s=10)

    async def gateway_side() -> Answer:
        gateway = _gateway(redis_server_url)
        assert await gateway.woken(timeout_s=1) == "b1"
        assert await gateway.take({"b1": "s1"}, most=10) == {"b1": [b"decide!"]}
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


def test_ask_sends_and_waits_in_one_go_and_an_answered_request_leaves_nothing_behind(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    runner = RunnerRelay(redis_client)
    asyncio.run(_gateway(redis_server_url).claim("b1", "s1", online_ttl_s=5))

    async def bot_answers() -> Answer:
        gateway = _gateway(redis_server_url)
        assert await gateway.woken(timeout_s=10) == "b1"
        assert await gateway.take({"b1": "s1"}, most=10) == {"b1": [b"decide!"]}
        return await gateway.answer("b1", "r1", b"action 3")

    answering = concurrent.futures.ThreadPoolExecutor(1).submit(asyncio.run, bot_answers())
    asked = runner.ask("b1", "g1", "r1", b"decide!", ttl_s=10, wait_s=10)
    assert asked.got == ("reply", b"action 3")
    assert asked.holder == keys.gateway_wake("gw")  # the gateway that held the bot, when asked
    assert answering.result() is Answer.ACCEPTED
    # Settled with the reply, no withdraw: a second reply is unknown, no key of r1 is left.
    assert asyncio.run(_gateway(redis_server_url).answer("b1", "r1", b"again")) is Answer.UNKNOWN
    assert not redis_client.exists(keys.request_owner("r1"), keys.reply("r1"))
    assert not redis_client.hexists(keys.bot_pending("b1"), "r1")


def test_a_wait_that_times_out_leaves_the_request_answerable(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    runner = RunnerRelay(redis_client)
    assert runner.ask("b1", "g1", "r1", b"decide!", ttl_s=10, wait_s=0.01).got is None
    assert asyncio.run(_gateway(redis_server_url).pending("b1")) == [b"decide!"]
    answer = _gateway(redis_server_url).answer("b1", "r1", b"action 1")
    assert asyncio.run(answer) is Answer.ACCEPTED
    assert runner.wait_reply("b1", "g1", "r1", timeout_s=10) == ("reply", b"action 1")
    assert not redis_client.exists(keys.request_owner("r1"), keys.reply("r1"))


def test_replies_sent_together_are_each_checked_on_their_own(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    runner = RunnerRelay(redis_client)
    for n in range(20):
        runner.request(f"b{n}", f"r{n}", b"decide!", ttl_s=10)

    async def all_at_once() -> list[Answer]:
        gateway = _gateway(redis_server_url)
        replies = [gateway.answer(f"b{n}", f"r{n}", b"%d" % n) for n in range(20)]
        replies += [gateway.answer("b0", "r0", b"second"), gateway.answer("b2", "r1", b"theft")]
        return list(await asyncio.gather(*replies))

    answers = asyncio.run(all_at_once())
    assert answers == [Answer.ACCEPTED] * 20 + [Answer.ALREADY_ANSWERED, Answer.NOT_YOURS]
    for n in range(20):
        assert runner.wait_reply(f"b{n}", "g", f"r{n}", timeout_s=10) == ("reply", b"%d" % n)


def test_a_resignation_reaches_the_referee_of_that_game_only(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    runner = RunnerRelay(redis_client)
    runner.join_game("b1", "g1")
    # A runner killed mid-game never leaves it: the set goes on its own in time.
    assert 0 < redis_client.ttl(keys.bot_games("b1")) <= GAMES_TTL_S
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
        old_current = not await gateway.refresh({"b1": "old"}, 5)
        new_current = not await gateway.refresh({"b1": "new"}, 5)
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


def test_messages_wake_only_the_gateway_holding_the_bot_and_only_its_session_takes_them(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    runner = RunnerRelay(redis_client)
    runner.notify("b1", b"before any gateway")  # kept in the inbox, woken nobody

    async def scene() -> tuple[str | None, str | None, object, object]:
        first, second = _gateway(redis_server_url, "one"), _gateway(redis_server_url, "two")
        await first.claim("b1", "old", online_ttl_s=5)
        await second.claim("b1", "new", online_ttl_s=5)  # the bot moved to gateway two
        runner.notify("b1", b"hello")
        woken = await first.woken(0.01), await second.woken(1)
        stale = await first.take({"b1": "old"}, most=10)
        fresh = await second.take({"b1": "new"}, most=10)
        return (*woken, stale, fresh)

    assert asyncio.run(scene()) == (
        None,
        "b1",
        {"b1": None},
        {"b1": [b"before any gateway", b"hello"]},
    )


def test_presence_tells_a_lost_gateway_from_a_disconnect(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    runner = RunnerRelay(redis_client)

    async def session(release: bool) -> None:
        gateway = _gateway(redis_server_url)
        await gateway.claim("b1", "s1", online_ttl_s=5)
        assert await gateway.refresh({"b1": "s1"}, 5) == []
        if release:
            await gateway.release("b1", "s1")

    assert runner.presence("b1") is Presence.DISCONNECTED  # never connected
    asyncio.run(session(release=False))
    assert runner.presence("b1") is Presence.ONLINE and runner.is_online("b1")
    redis_client.delete("arena:bot:b1:online")  # as when the gateway stops refreshing it
    assert runner.presence("b1") is Presence.GATEWAY_LOST and not runner.is_online("b1")
    asyncio.run(session(release=True))
    assert runner.presence("b1") is Presence.DISCONNECTED


def test_a_refresh_after_redis_lost_its_data_claims_the_bot_again(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    async def scene() -> list[str]:
        gateway = _gateway(redis_server_url)
        await gateway.claim("b1", "s1", online_ttl_s=5)
        await gateway.claim("b2", "s2", online_ttl_s=5)
        redis_client.flushdb()  # a restart without persistence
        await gateway.claim("b2", "elsewhere", online_ttl_s=5)
        return await gateway.refresh({"b1": "s1", "b2": "s2"}, 5)

    assert asyncio.run(scene()) == ["b2"]  # b2 was taken over; b1 is simply ours again
    assert RunnerRelay(redis_client).is_online("b1")
    assert redis_client.get("arena:bot:b1:session") == b"s1"
