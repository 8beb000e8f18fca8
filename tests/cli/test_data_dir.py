"""`arena serve --embedded-redis` keeps its store in a data directory, as an operator runs it:
real processes, killed with SIGKILL, started again on the same folder."""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from click.testing import CliRunner

from arena.cli import main
from arena.store import keys
from arena.store.bots import BotRegistry
from arena.store.data_dir import socket_url
from arena.store.tournaments import Status, TournamentStore
from tests.cli.test_processes import Command, command, free_port, pid_alive, tmpdir_for_commands
from tests.store.contents import contents
from tests.workers.tournaments import by_place, outcome, wait_until_over, work_in_process
from workers.processes import kill_tree

__all__ = ["command", "tmpdir_for_commands"]  # the fixtures, shared with the process tests
pytestmark = pytest.mark.timeout(600)

FIELD = "search#16,search#8,greedy,random,search#4"  # round robin: 10 matches in 5 rounds
MATCHES = 10


@pytest.fixture
def data_dir() -> Iterator[Path]:
    """A short path (the store's unix socket lives in it), removed afterwards."""
    parent = Path(tempfile.mkdtemp(prefix="arena-data-", dir="/tmp"))
    yield parent / "store"
    shutil.rmtree(parent, ignore_errors=True)


def serve(command: Callable[..., Command], data_dir: Path) -> Command:
    port = str(free_port())
    args = ("serve", "--embedded-redis", "--data-dir", str(data_dir), "--port", port)
    started = command(*args, "--metrics-port", "0")
    started.wait_for_output("Bots connect to")
    return started


def kill_9(serve: Command, data_dir: Path) -> None:
    """SIGKILL the redis-server first (else the gateway's death stops it in order), then serve."""
    redis_pid = int((data_dir / "redis.pid").read_text())
    os.kill(redis_pid, signal.SIGKILL)
    os.kill(serve.process.pid, signal.SIGKILL)
    serve.process.wait(30)
    deadline = time.monotonic() + 30
    while pid_alive(redis_pid):
        assert time.monotonic() < deadline, "redis-server outlived SIGKILL"
        time.sleep(0.05)


def arena(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def lasting(client: redis.Redis) -> dict[bytes, tuple[str, object]]:
    """The store less what lives only while its process does: what expires by design
    (presence, heartbeats: each gateway its own) and the list of running gateways."""
    found = contents(client)
    running = keys.gateways().encode()
    return {k: v for k, v in found.items() if client.ttl(k) == -1 and k != running}


def test_the_store_survives_kill_9_and_a_second_serve_is_refused(
    command: Callable[..., Command], data_dir: Path
) -> None:
    first = serve(command, data_dir)
    url = socket_url(data_dir)
    client = redis.Redis.from_url(url)
    token = arena("bot", "register", "mybot", "--quiet", "--redis-url", url).strip()
    arena("ladder", "create", "main", "--redis-url", url)
    arena("tournament", "create", "cup", "--entrants", FIELD, "--redis-url", url)
    arena("sprt", "start", "t1", "--test", "search#8", "--base", "greedy", "--redis-url", url)
    before = lasting(client)
    redis_pid = int((data_dir / "redis.pid").read_text())

    second = command("serve", "--embedded-redis", "--data-dir", str(data_dir), "--port", "0")
    second.wait_until(lambda: second.process.poll() is not None, "the second serve's exit")
    assert second.process.returncode == 1
    assert second.output().strip() == (
        f"Error: data directory {data_dir} is in use by arena pid {first.process.pid} and "
        f"redis-server pid {redis_pid}; stop it first, or pass another --data-dir"
    )

    kill_9(first, data_dir)
    again = serve(command, data_dir)
    assert lasting(client) == before
    found = BotRegistry(client).authenticate(token)
    assert found is not None and found.name == "mybot"
    assert again.stop_with(signal.SIGTERM) == 0
    assert "Traceback" not in again.output()
    assert not (data_dir / "redis.pid").exists(), "redis-server outlived an orderly stop"


def test_serve_killed_alone_takes_its_redis_down_and_frees_the_folder(
    command: Callable[..., Command], data_dir: Path
) -> None:
    """Its redis-server is no child the kernel reaps with it, yet it must not run on (holding
    the folder) once serve is gone: it is told to stop when its parent dies."""
    first = serve(command, data_dir)
    client = redis.Redis.from_url(socket_url(data_dir))
    client.set("arena:test:kept", "yes")
    redis_pid = int((data_dir / "redis.pid").read_text())
    os.kill(first.process.pid, signal.SIGKILL)
    first.process.wait(30)
    deadline = time.monotonic() + 60
    while pid_alive(redis_pid):
        assert time.monotonic() < deadline, "redis-server outlived serve"
        time.sleep(0.05)
    serve(command, data_dir)  # the folder is free again
    assert client.get("arena:test:kept") == b"yes"


def test_a_tournament_cut_by_kill_9_finishes_as_an_undisturbed_one(
    command: Callable[..., Command],
    data_dir: Path,
    redis_client: redis.Redis,
    redis_server_url: str,
) -> None:
    create = ["tournament", "create", "cup", "--format", "round-robin", "--entrants", FIELD]
    create += ["--games-per-match", "4", "--seed", "7"]
    first = serve(command, data_dir)
    url = socket_url(data_dir)
    client = redis.Redis.from_url(url)
    arena(*create, "--redis-url", url)
    arena("tournament", "start", "cup", "--redis-url", url)
    pool = command("worker", "--processes", "2", redis_url=url)
    store = TournamentStore(client)
    pool.wait_until(lambda: len(store.results("cup")) >= 3, "three matches on record")

    kill_tree(pool.process)  # the whole machine goes: workers, gateway and Redis
    kill_9(first, data_dir)
    serve(command, data_dir)
    assert 3 <= len(store.results("cup")) < MATCHES, "the kill fell mid-tournament"
    command("worker", "--processes", "2", redis_url=url)  # the workers come back
    assert wait_until_over(client, "cup", timeout_s=400) is Status.FINISHED, store.reason("cup")

    arena(*create, "--redis-url", redis_server_url)  # the same tournament, undisturbed
    arena("tournament", "start", "cup", "--redis-url", redis_server_url)
    work_in_process(redis_client)
    undisturbed = by_place(redis_client, "cup")
    resumed = by_place(client, "cup")
    assert len(undisturbed) == len(resumed) == MATCHES  # nothing lost, nothing doubled
    assert {k: outcome(m) for k, m in resumed.items()} == {
        k: outcome(m) for k, m in undisturbed.items()
    }
    assert game_records(client) == game_records(redis_client)


def game_records(client: redis.Redis) -> int:
    return sum(1 for _ in client.scan_iter(keys.game_record("*")))


def refusal(*args: str) -> str:
    result = CliRunner().invoke(main, ["serve", *args, "--port", "0", "--metrics-port", "0"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    return result.output


def test_serve_refuses_a_data_dir_it_cannot_use_in_one_line(data_dir: Path) -> None:
    assert refusal("--data-dir", str(data_dir)) == (
        "Error: --data-dir and --ephemeral go with --embedded-redis\n"
    )
    deep = data_dir / ("d" * 120)
    assert refusal("--embedded-redis", "--data-dir", str(deep)) == (
        f"Error: data directory {deep} is too deep for a unix socket; pick a shorter one\n"
    )
    data_dir.mkdir(parents=True)
    (data_dir / "appendonly.aof").write_bytes(b"*3\r\n$3\r\nSET\r\nnot a command at all\r\n" * 3)
    assert refusal("--embedded-redis", "--data-dir", str(data_dir)) == (
        f"Error: redis-server could not start in {data_dir}; see {data_dir / 'redis.log'}\n"
    )
