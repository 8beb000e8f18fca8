"""Starting and stopping arena processes (worker pools, example bots) for the demo and benchmarks.

Each child gets a session of its own, so a Ctrl-C in the terminal reaches only the parent, which
then stops its children in order: SIGTERM first (RQ finishes the job in hand), SIGKILL if stuck.
Children are started with SIGINT and SIGTERM held back, so an interrupt cannot land between the
fork and the moment the parent records the child, which would leave it running unknown.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path


def descendants(pid: int) -> list[int]:
    """Every process under `pid`, however deep (RQ's work-horse has a session of its own)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            # the command name (2nd field) may hold spaces; the parent pid follows its ')'
            parent = int(stat.read_text().rpartition(")")[2].split()[1])
            children.setdefault(parent, []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        kids = children.get(todo.pop(), [])
        found += kids
        todo += kids
    return found


def kill_tree(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL a process and everything under it, as when its machine dies."""
    for pid in [process.pid, *descendants(process.pid)]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    process.wait(10)


def spawn_python(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    """`python ARGS` with this interpreter, output to `log`."""
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, *args],
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """SIGINT and SIGTERM arriving in the block take effect as it ends (exec'd children start
    with default handlers, so they are not affected)."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread handles signals
        return
    caught: list[int] = []
    stop_signals = (signal.SIGINT, signal.SIGTERM)
    previous = {
        sig: signal.signal(sig, lambda signum, _: caught.append(signum)) for sig in stop_signals
    }
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if caught:
            signal.raise_signal(caught[0])


@contextlib.contextmanager
def python_process(args: list[str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """`spawn_python` for the block, stopped on the way out."""
    started: list[subprocess.Popen[bytes]] = []
    try:
        with signals_deferred():
            started.append(spawn_python(args, log))
        yield started[0]
    finally:
        stop_all(started)


def stop(process: subprocess.Popen[bytes], timeout_s: float = 30) -> None:
    stop_all([process], timeout_s)


def stop_all(processes: list[subprocess.Popen[bytes]], timeout_s: float = 30) -> None:
    """Stop each process and its group, all at once: SIGTERM (an RQ worker finishes the match in
    hand), a second SIGTERM after `timeout_s` (RQ's cold stop, which also ends the job's
    work-horse in its own group), SIGKILL if even that hangs."""
    for stop_signal, wait_s in (
        (signal.SIGTERM, timeout_s),
        (signal.SIGTERM, 10),
        (signal.SIGKILL, 10),
    ):
        running = [process for process in processes if process.poll() is None]
        for process in running:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, stop_signal)
        deadline = time.monotonic() + wait_s
        for process in running:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(max(deadline - time.monotonic(), 0))


@contextlib.contextmanager
def worker_pool(
    redis_url: str, count: int, log_dir: Path, name: str
) -> Iterator[list[subprocess.Popen[bytes]]]:
    """`count` `arena worker` processes named NAME-0, NAME-1, ...; stopped on the way out."""
    started: list[subprocess.Popen[bytes]] = []
    try:
        for n in range(count):
            args = ["-m", "arena", "worker", "--redis-url", redis_url, "--name", f"{name}-{n}"]
            with signals_deferred():
                started.append(spawn_python(args, log_dir / f"{name}-{n}.log"))
        yield started
    finally:
        stop_all(started)
