"""Waiting, in the tests, for something a bot process does on its own time (connecting)."""

from __future__ import annotations

from collections.abc import Callable

from arena.gateway.testing import Arena
from arena.store.bots import BotRegistry
from arena.store.relay import RunnerRelay
from bots_sdk import live_check

WAIT_S = 20.0


def wait_until(condition: Callable[[], bool], timeout_s: float = WAIT_S) -> bool:
    """Whether `condition` came true within `timeout_s` (`bots_sdk.live_check.wait_until`)."""
    return live_check.wait_until(condition, timeout_s)


def wait_online(arena: Arena, name: str) -> None:
    """Fail the test unless the registered bot `name` connects to the arena in time."""
    bot = BotRegistry(arena.client).by_name(name)
    assert bot is not None
    relay = RunnerRelay(arena.client)
    assert wait_until(lambda: relay.is_online(bot.bot_id)), f"the bot {name} did not connect"
