"""`arena worker`'s log, read as a person would: one line per worker listening and per job
started and finished, RQ's own lines only with -v and its registry maintenance only with -vv,
and SIGTERM a clean stop (exit 0) of one line."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from click.testing import CliRunner

from arena.cli import main
from arena.store.job_queue import arena_queue
from arena.store.tournaments import Status, TournamentStore
from workers.arena_worker import MAINTENANCE_S

pytestmark = pytest.mark.timeout(300)
READY_S = 120  # generous: two shared cores, several agents
LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (\S+) (.*)$")
Start = Callable[..., subprocess.Popen[bytes]]


@pytest.fixture
def start_worker(tmp_path: Path, redis_server_url: str) -> Iterator[Start]:
    started: list[subprocess.Popen[bytes]] = []

    def start(*args: str) -> subprocess.Popen[bytes]:
        with (tmp_path / f"worker-{len(started)}.log").open("wb") as out:
            argv = [sys.executable, "-m", "arena", "worker", *args, "--redis-url", redis_server_url]
            env = {**os.environ, "COLUMNS": "200"}
            started.append(subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env))
        return started[-1]

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
            process.wait()


def output(tmp_path: Path, n: int = 0) -> str:
    return (tmp_path / f"worker-{n}.log").read_text(errors="replace")


def wait_for(ready: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + READY_S
    while not ready():
        assert time.monotonic() < deadline, f"no {what} in {READY_S} s"
        time.sleep(0.1)


def start_tournament(url: str) -> None:
    entrants = ("--entrants", "random,greedy,search#4", "--seed", "1")
    for args in (("create", "cup", "--format", "round-robin", *entrants), ("start", "cup")):
        got = CliRunner().invoke(main, ["tournament", *args, "--redis-url", url])
        assert got.exit_code == 0, got.output


def messages(text: str) -> list[str]:
    """Every line's message, after its time and process name; a line of another shape fails."""
    found = []
    for line in text.splitlines():
        parsed = LINE.match(line)
        assert parsed, f"not a log line: {line!r} in\n{text}"
        found.append(parsed.group(2))
    return found


def test_a_pool_logs_one_line_per_event_and_stops_on_sigterm_with_one_line(
    start_worker: Start, tmp_path: Path, redis_client: redis.Redis, redis_server_url: str
) -> None:
    start_tournament(redis_server_url)
    pool = start_worker("--processes", "2")
    store = TournamentStore(redis_client)
    wait_for(lambda: store.status("cup") is Status.FINISHED, "finished tournament")
    time.sleep(3 * MAINTENANCE_S)  # RQ's maintenance runs meanwhile, every MAINTENANCE_S
    pool.send_signal(signal.SIGTERM)
    assert pool.wait(READY_S) == 0, output(tmp_path)
    said = messages(output(tmp_path))
    listening = [m for m in said if re.fullmatch(r"worker \w+ listening on queue arena", m)]
    started = sorted(m.removeprefix("started ") for m in said if m.startswith("started "))
    finished = [m.removeprefix("finished ") for m in said if m.startswith("finished ")]
    assert len(listening) == 2 and started, said
    assert sorted(re.sub(r" in [\d.]+ s$", "", m) for m in finished) == started, said
    assert said[-1] == "stopping 2 workers: the jobs in hand finish first (at most 30 s)", said
    assert len(said) == len(listening) + 2 * len(started) + 1, said


@pytest.mark.parametrize(
    ("flags", "rq_lines", "maintenance"),
    [((), False, False), (("-v",), True, False), (("-vv",), True, True)],
    ids=["quiet", "-v", "-vv"],
)
def test_rq_speaks_with_v_and_its_maintenance_with_vv(
    start_worker: Start,
    tmp_path: Path,
    redis_client: redis.Redis,
    redis_server_url: str,
    flags: tuple[str, ...],
    rq_lines: bool,
    maintenance: bool,
) -> None:
    start_tournament(redis_server_url)
    burst = start_worker("--burst", *flags)  # plays what is queued, then stops by itself
    assert burst.wait(READY_S) == 0, output(tmp_path)
    text = output(tmp_path)
    assert "started cup" in text and "finished cup" in text
    assert ("Job OK" in text) is rq_lines, text
    assert ("cleaning registries" in text) is maintenance, text


def test_a_single_worker_stops_on_sigterm_with_one_line(
    start_worker: Start, tmp_path: Path
) -> None:
    single = start_worker()
    wait_for(lambda: "listening on queue" in output(tmp_path), "listening worker")
    time.sleep(2 * MAINTENANCE_S)
    single.send_signal(signal.SIGTERM)
    assert single.wait(READY_S) == 0, output(tmp_path)
    said = messages(output(tmp_path))
    assert len(said) == 2 and said[1] == "stopping", said


def test_a_failed_job_is_one_line(
    start_worker: Start, tmp_path: Path, redis_client: redis.Redis
) -> None:
    arena_queue(redis_client).enqueue("builtins.int", args=("x",), description="a job that fails")
    burst = start_worker("--burst")
    assert burst.wait(READY_S) == 0, output(tmp_path)
    said = messages(output(tmp_path))
    assert said[1:] == [
        "started a job that fails",
        "failed a job that fails: ValueError: invalid literal for int() with base 10: 'x'",
    ], said
