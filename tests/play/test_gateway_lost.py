"""A gateway that dies in the middle of a game (SIGKILL: it cannot say goodbye) voids the game:
an infrastructure fault is replayed, never scored as the bot's timeout or disconnect."""

from __future__ import annotations

import os
import signal
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import redis

from arena.games import get_game
from arena.gateway.testing import running_arena
from arena.metrics.recorder import VOIDED
from arena.play.match import play_match, play_match_replaying_voids
from arena.play.remote import GatewayLostError
from arena.referee.referee import FaultPolicy, GameOutcome, Termination
from arena.store import keys
from arena.store.bots import BotRegistry
from arena.v1 import bot_pb2
from tests.gateway.rawbot import Policy, RawBot, first_legal
from workers.processes import spawn_python, stop

pytestmark = pytest.mark.timeout(180)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _connect(port: int, token: str, policy: Policy) -> RawBot:
    bot = RawBot(f"127.0.0.1:{port}", token, policy=policy)
    deadline = time.monotonic() + 60
    while not bot.start().welcomed.wait(5) and time.monotonic() < deadline:
        bot.close()  # the gateway was not listening yet
        bot = RawBot(f"127.0.0.1:{port}", token, policy=policy)
    return bot


def _kill_gateway_mid_game(
    client: redis.Redis,
    url: str,
    folder: Path,
    kill_after_s: float,
    play: Callable[[], object],
    token: str | None = None,
) -> tuple[list[object], list[BaseException]]:
    """`play` with a bot that never answers (registered as "stranded" unless its `token` is
    given), connected to a gateway process SIGKILLed `kill_after_s` after the bot's first
    request came in; what `play` returned or raised."""
    token = token or BotRegistry(client).register("stranded")[1]
    port = _free_port()
    serve = ["-m", "arena", "serve", "--redis-url", url, "--port", str(port)]
    gateway = spawn_python([*serve, "--metrics-port", "0"], folder / "gateway.log")
    asked = threading.Event()

    def think_for_ever(request: bot_pb2.DecisionRequest) -> None:
        asked.set()  # and never answer: the gateway dies while the bot thinks

    results: list[object] = []
    failures: list[BaseException] = []

    def referee() -> None:
        try:
            results.append(play())
        except BaseException as error:
            failures.append(error)

    try:
        bot = _connect(port, token, think_for_ever)
        runner = threading.Thread(target=referee)
        runner.start()
        assert asked.wait(60)
        time.sleep(kill_after_s)
        os.killpg(gateway.pid, signal.SIGKILL)
        bot.close()
        runner.join(90)
        assert not runner.is_alive()
    finally:
        stop(gateway)
    return results, failures


def _one_game(client: redis.Redis, policy: FaultPolicy) -> Callable[[], object]:
    return lambda: play_match(
        client, get_game("caper"), {"city": "paris"}, ["stranded", "random"], 1, 1, policy, "lost"
    )


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
    play = _one_game(redis_client, policy)
    _, failures = _kill_gateway_mid_game(redis_client, redis_server_url, tmp_path, 0, play)
    _assert_void(redis_client, failures)


def test_under_the_default_clock_a_killed_gateway_voids_rather_than_times_out(
    redis_client: redis.Redis, redis_server_url: str, tmp_path: Path
) -> None:
    """The bot's deadline (move and bank) passes before the grace period runs out: the missed
    deadline is not the bot's, since its gateway no longer beats."""
    play = _one_game(redis_client, FaultPolicy())
    _, failures = _kill_gateway_mid_game(redis_client, redis_server_url, tmp_path, 0.5, play)
    _assert_void(redis_client, failures)


def test_a_gateway_killed_just_before_the_deadline_voids_the_game(
    redis_client: redis.Redis, redis_server_url: str, tmp_path: Path
) -> None:
    """Killed a moment before the deadline, the gateway's beat still lives when it passes:
    the runner waits for the next beat, which never comes, rather than charge the bot."""
    policy = FaultPolicy(move_ms=3000, bank_ms=0, max_strikes=3, grace_ms=10_000)
    play = _one_game(redis_client, policy)
    _, failures = _kill_gateway_mid_game(redis_client, redis_server_url, tmp_path, 2.5, play)
    _assert_void(redis_client, failures)


def test_a_voided_match_is_replayed_once_its_bot_is_back(
    redis_client: redis.Redis, redis_server_url: str, tmp_path: Path
) -> None:
    """As a tournament does: the match is played again from scratch, with one line said."""
    told: list[str] = []
    policy = FaultPolicy(move_ms=60_000, bank_ms=0, max_strikes=1, grace_ms=1000)
    token = BotRegistry(redis_client).register("stranded")[1]
    bots: list[RawBot] = []
    with running_arena(redis_server_url) as arena:

        def back_when_void(line: str) -> None:  # to the gateway still standing
            told.append(line)
            bots.append(_connect(arena.gateway.port, token, first_legal))

        def play() -> list[GameOutcome]:
            return play_match_replaying_voids(
                redis_client, get_game("caper"), {"city": "paris"}, ["stranded", "random"],
                2, 1, policy, "again", told=back_when_void,
            )  # fmt: skip

        results, failures = _kill_gateway_mid_game(
            redis_client, redis_server_url, tmp_path, 0, play, token
        )
        for bot in bots:
            bot.close()
    assert not failures, failures
    outcomes = results[0]
    assert isinstance(outcomes, list) and len(outcomes) == 2
    assert all(outcome.termination is Termination.NORMAL for outcome in outcomes)
    assert len(told) == 1 and "again.g0 is void" in told[0], told
    assert "replaying the match (attempt 2 of 4)" in told[0]
    assert redis_client.exists(keys.game_record("again.g0"), keys.game_record("again.g1")) == 2


def test_a_voided_match_whose_bot_stays_away_ends_in_one_line(
    redis_client: redis.Redis, redis_server_url: str, tmp_path: Path
) -> None:
    """`arena match`, a real process: one line saying why, no traceback."""
    log = tmp_path / "match.log"
    command = [
        "-m", "arena", "match", "stranded", "random", "--redis-url", redis_server_url,
        "--games", "1", "--move-ms", "60000", "--grace-ms", "1000",
    ]  # fmt: skip
    processes = []

    def play() -> int:
        processes.append(spawn_python(command, log))
        return processes[0].wait(90)

    try:
        results, failures = _kill_gateway_mid_game(
            redis_client, redis_server_url, tmp_path, 0, play
        )
    finally:
        for process in processes:
            stop(process)
    assert not failures and results == [1], (failures, results, log.read_text())
    lines = [line for line in log.read_text().splitlines() if line.strip()]
    assert "Traceback" not in log.read_text(), lines
    assert lines[-1].startswith("Error: ") and "is void" in lines[-1], lines
    assert "did not connect again within the grace period (1000 ms)" in lines[-1]
