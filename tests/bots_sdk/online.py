"""Waiting, in the tests, for something a bot process does on its own time (connecting)."""

from __future__ import annotations

import time
from collections.abc import Callable

from arena.gateway.testing import Arena
from arena.store.bots import BotRegistry
from arena.store.relay import RunnerRelay

WAIT_S = 20.0


def wait_until(condition: Callable[[], bool], timeout_s: float = WAIT_S) -> bool:
    """Whether `condition` came true within `timeout_s` (polled every 50 ms)."""
    end = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def wait_online(arena: Arena, name: str) -> None:
    """Fail the test unless the registered bot `name` connects to the arena in time."""
    bot = BotRegistry(arena.client).by_name(name)
    assert bot is not None
    relay = RunnerRelay(arena.client)
    assert wait_until(lambda: relay.is_online(bot.bot_id)), f"the bot {name} did not connect"
