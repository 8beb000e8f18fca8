"""A real arena for the web tests: the gRPC gateway, an SDK bot process connected to it, and
tournaments played to the end by real worker processes."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import redis

from arena.gateway.server import GatewaySettings, GatewayThread
from arena.store.bots import BotRegistry
from arena.store.tournaments import Status
from tests.workers.conftest import StartWorker
from tests.workers.tournaments import create_and_start, wait_until_over
from workers.processes import python_process

SDK_BOT = "sdk-bot"
SDK_VERSION = "1.1"  # what bots_sdk/examples/random_bot.py sends in its Hello
FIELD = ["random", "greedy", "search#4", "search#8", SDK_BOT]


@dataclass(frozen=True, slots=True)
class Connected:
    name: str
    token: str
    target: str  # the gateway's host:port
    process: subprocess.Popen[bytes]  # the SDK bot's
    log: Path


def sdk_bot_args(target: str, token: str) -> list[str]:
    return ["-m", "bots_sdk.examples.random_bot", "--target", target, "--token", token]


@contextmanager
def connected_sdk_bot(client: redis.Redis, url: str, logs: Path) -> Iterator[Connected]:
    """The example SDK bot, registered and connected over gRPC until the block ends."""
    gateway = GatewayThread(GatewaySettings(url, "127.0.0.1", 0)).start()
    try:
        info, token = BotRegistry(client).register(SDK_BOT)
        log = logs / "sdk-bot.log"
        with python_process(sdk_bot_args(gateway.target, token), log) as process:
            while not BotRegistry(client).is_online(info.bot_id):
                assert process.poll() is None, log.read_text()
                time.sleep(0.05)
            yield Connected(SDK_BOT, token, gateway.target, process, log)
    finally:
        gateway.stop()


def play_swiss(client: redis.Redis, start_worker: StartWorker, name: str = "cup") -> None:
    """A 5-entrant Swiss of 3 rounds (byes included), played by two worker processes."""
    start_worker(f"{name}-a"), start_worker(f"{name}-b")
    create_and_start(client, name, "swiss", FIELD, rounds=3, seed=97531)
    assert wait_until_over(client, name) is Status.FINISHED
