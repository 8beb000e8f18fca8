"""A gateway's stop ends its relay loops even when a Redis call absorbs the cancellation, as
redis-py's command send does on Python 3.11 (its `asyncio.wait_for` returns the finished send's
result instead of raising when the cancellation arrives just then)."""

from __future__ import annotations

import asyncio

import redis

from arena.gateway.hub import WAKE_WAIT_S, Hub
from arena.gateway.server import relay_client
from arena.store.relay import GatewayRelay

STOP_WAIT_S = 30 * WAKE_WAIT_S  # far beyond one loop step: only a stop that never ends fails


class AbsorbsOneCancellation(GatewayRelay):
    """The wake loop's BLPOP carries on once after being cancelled, as Python 3.11 lets it."""

    absorbed = 0

    async def woken(self, timeout_s: float) -> str | None:
        try:
            return await super().woken(timeout_s)
        except asyncio.CancelledError:
            if self.absorbed:
                raise
            self.absorbed += 1
            return None


async def _stop_after_one_wake_wait(url: str) -> tuple[bool, list[bool], int]:
    """Whether the stop ended, whether each loop did, and how many cancellations were absorbed."""
    client = relay_client(url, "stop-test")
    relay = AbsorbsOneCancellation(client, "stop-test")
    hub = Hub(relay)
    hub.start()
    await asyncio.sleep(WAKE_WAIT_S / 4)  # both loops are in their Redis calls
    stop = asyncio.create_task(hub.stop())
    await asyncio.wait([stop], timeout=STOP_WAIT_S)
    ended = stop.done()
    loops_ended = [task.done() for task in hub._tasks]
    for task in (stop, *hub._tasks):  # a stop that hung: end it, to report rather than hang
        task.cancel()
    await client.aclose()
    return ended, loops_ended, relay.absorbed


def test_stop_ends_the_relay_loops_when_a_cancellation_is_absorbed(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    ended, loops_ended, absorbed = asyncio.run(_stop_after_one_wake_wait(redis_server_url))
    assert absorbed == 1, "the wake loop was not cancelled inside its BLPOP"
    assert ended and loops_ended == [True, True]
