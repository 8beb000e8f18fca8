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


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _kill_gateway_mid_game(
    client: redis.Redis, url: str, folder: Path, policy: FaultPolicy, kill_after_s: float
) -> list[BaseException]:
    """Play one game of a bot that never answers through a gateway process, SIGKILLed
    `kill_after_s` after the bot's first request came in; what the referee raised."""
    _, token = BotRegistry(client).register("stranded")
    port = _free_port()
    serve = ["-m", "arena", "serve", "--redis-url", url, "--port", str(port)]
    gateway = spawn_python([*serve, "--metrics-port", "0"], folder / "gateway.log")
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
                    client, get_game("caper"), {"city": "paris"}, ["stranded", "random"],
                    1, 1, policy, "lost",
                )  # fmt: skip
            except BaseException as error:
                failures.append(error)

        runner = threading.Thread(target=referee)
        runner.start()
        assert asked.wait(60)
        time.sleep(kill_after_s)
        os.killpg(gateway.pid, signal.SIGKILL)
        runner.join(90)
        assert not runner.is_alive()
    finally:
        stop(gateway)
    bot.close()
    return failures


def _assert_void(client: redis.Redis, failures: list[BaseException]) -> None:
    assert len(failures) == 1 and isinstance(failures[0], GatewayLostError), failures
    assert "stranded" in str(failures[0]) and "void" in str(failures[0])
    assert client.get(keys.game_record("lost.g0")) is None  # never scored
    voided = client.hgetall(keys.metric_counter(VOIDED.name))
    assert sum(int(count) for count in voided.values()) == 1
    bot_id = BotRegistry(client).by_name("stranded").bot_id  # type: ignore[union-attr]
    assert not client.exists(keys.bot_games(bot_id))  # the bot is in no game any more
    assert not client.hlen(keys.bot_pending(bot_id))  # nor asked anything


def test_a_gateway_killed_mid_game_voids_the_game(
    redis_client: redis.Redis, redis_server_url: str, tmp_path: Path
) -> None:
    policy = FaultPolicy(move_ms=60_000, bank_ms=0, max_strikes=1, grace_ms=1000)
    _assert_void(
        redis_client, _kill_gateway_mid_game(redis_client, redis_server_url, tmp_path, policy, 0)
    )


def test_under_the_default_clock_a_killed_gateway_voids_rather_than_times_out(
    redis_client: redis.Redis, redis_server_url: str, tmp_path: Path
) -> None:
    """The bot's deadline (move and bank) passes before the grace period runs out: the missed
    deadline is not the bot's, since its gateway no longer beats."""
    failures = _kill_gateway_mid_game(
        redis_client, redis_server_url, tmp_path, FaultPolicy(), kill_after_s=0.5
    )
    _assert_void(redis_client, failures)


def test_a_gateway_killed_just_before_the_deadline_voids_the_game(
    redis_client: redis.Redis, redis_server_url: str, tmp_path: Path
) -> None:
    """Killed a moment before the deadline, the gateway's beat still lives when it passes:
    the runner waits for the next beat, which never comes, rather than charge the bot."""
    policy = FaultPolicy(move_ms=3000, bank_ms=0, max_strikes=3, grace_ms=10_000)
    failures = _kill_gateway_mid_game(
        redis_client, redis_server_url, tmp_path, policy, kill_after_s=2.5
    )
    _assert_void(redis_client, failures)
