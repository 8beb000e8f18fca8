"""A gateway that dies in the middle of a game (SIGKILL: it cannot say goodbye) voids the game:
an infrastructure fault is replayed, never scored as the bot's timeout or disconnect."""

from __future__ import annotations

import os
import signal
import socket
import threading
import time
from pathlib import Path

import pytest
import redis

from arena.games import get_game
from arena.match.match import play_match
from arena.match.referee import FaultPolicy
from arena.match.remote import GatewayLostError
from arena.metrics.recorder import VOIDED
from arena.store import keys
from arena.store.bots import BotRegistry
from arena.v1 import bot_pb2
from tests.gateway.rawbot import RawBot
from workers.processes import spawn_python, stop

pytestmark = pytest.mark.timeout(180)
POLICY = FaultPolicy(move_ms=60_000, bank_ms=0, max_strikes=1, grace_ms=1000)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_gateway_killed_mid_game_voids_the_game(
    redis_client: redis.Redis, redis_server_url: str, tmp_path: Path
) -> None:
    _, token = BotRegistry(redis_client).register("stranded")
    port = _free_port()
    serve = ["-m", "arena", "serve", "--redis-url", redis_server_url, "--port", str(port)]
    gateway = spawn_python([*serve, "--metrics-port", "0"], tmp_path / "gateway.log")
    asked = threading.Event()

    def think_for_ever(request: bot_pb2.DecisionRequest) -> None:
        asked.set()  # and never answer: the gateway dies while the bot thinks

    try:
        bot = RawBot(f"127.0.0.1:{port}", token, policy=think_for_ever)
        deadline = time.monotonic() + 60
        while not bot.start().welcomed.wait(5) and time.monotonic() < deadline:
            bot.close()  # the gateway was not listening yet
            bot = RawBot(f"127.0.0.1:{port}", token, policy=think_for_ever)
        failures: list[BaseException] = []

        def referee() -> None:
            try:
                play_match(
                    redis_client, get_game("caper"), {"city": "paris"}, ["stranded", "random"],
                    1, 1, POLICY, "lost",
                )  # fmt: skip
            except BaseException as error:
                failures.append(error)

        runner = threading.Thread(target=referee)
        runner.start()
        assert asked.wait(60)
        os.killpg(gateway.pid, signal.SIGKILL)
        runner.join(60)
        assert not runner.is_alive()
    finally:
        stop(gateway)
    assert len(failures) == 1 and isinstance(failures[0], GatewayLostError), failures
    assert "stranded" in str(failures[0]) and "void" in str(failures[0])
    assert redis_client.get(keys.game_record("lost.g0")) is None  # never scored
    voided = redis_client.hgetall(keys.metric_counter(VOIDED.name))
    assert sum(int(count) for count in voided.values()) == 1
    bot.close()
