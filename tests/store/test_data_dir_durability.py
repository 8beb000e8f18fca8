"""The data-directory Redis (`arena serve --embedded-redis`) keeps every write it acknowledged
through a `kill -9`, while other writes keep its append-only file busy (a gateway beats once a
second; a match relays decisions)."""

from __future__ import annotations

import contextlib
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import redis

from arena.store.bots import BotRegistry
from tests.gateway.conftest import PrivateRedis

ROUNDS = 6
FSYNC_WAIT_S = 1.5  # a Redis syncing every second starts a background fsync within it


@contextlib.contextmanager
def busy_writer(url: str) -> Iterator[None]:
    """Another client writing all along, as a gateway's beat does."""
    done = threading.Event()

    def write() -> None:
        while not done.wait(0.05):
            with contextlib.suppress(redis.RedisError):  # Redis is down between rounds
                redis.Redis.from_url(url, socket_timeout=5).set("beat", time.time())

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join(30)


def at_the_worst_moment(client: redis.Redis) -> None:
    """Return while the append-only file is being synced in the background: a Redis syncing
    every second then answers writes it holds in memory until that fsync ends. A Redis syncing
    each write (or leaving it to the kernel) has no such moment."""
    if client.config_get("appendfsync")["appendfsync"] != "everysec":
        return
    deadline = time.monotonic() + FSYNC_WAIT_S
    while time.monotonic() < deadline:
        if client.info("persistence").get("aof_pending_bio_fsync"):
            return


def test_a_registration_acknowledged_just_before_a_kill_9_survives_it() -> None:
    with tempfile.TemporaryDirectory(prefix="arena-redis-") as folder:
        server = PrivateRedis(Path(folder))
        server.start()
        tokens = {}
        try:
            with busy_writer(server.url):
                for round_number in range(ROUNDS):
                    client = redis.Redis.from_url(server.url)
                    at_the_worst_moment(client)
                    name = f"bot{round_number}"
                    _, tokens[name] = BotRegistry(client).register(name)
                    server.stop()  # SIGKILL, the moment the registration is answered
                    server.start()
            registry = BotRegistry(redis.Redis.from_url(server.url))
            found = {name: registry.authenticate(token) for name, token in tokens.items()}
        finally:
            server.stop()
    assert {name: bot.name if bot else None for name, bot in found.items()} == {
        name: name for name in tokens
    }
