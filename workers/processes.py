"""Starting and stopping arena processes (worker pools, example bots) for the demo and benchmarks.

Each child gets a session of its own, so a Ctrl-C in the terminal reaches only the parent, which
then stops its children in order: SIGTERM first (RQ finishes the job in hand), SIGKILL if stuck.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path


def spawn_python(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    """`python ARGS` with this interpreter, output to `log`."""
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, *args],
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def stop(process: subprocess.Popen[bytes], timeout_s: float = 30) -> None:
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout_s)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


@contextlib.contextmanager
def worker_pool(
    redis_url: str, count: int, log_dir: Path, name: str
) -> Iterator[list[subprocess.Popen[bytes]]]:
    """`count` `arena worker` processes named NAME-0, NAME-1, ...; stopped on the way out."""
    started: list[subprocess.Popen[bytes]] = []
    try:
        for n in range(count):
            args = ["-m", "arena", "worker", "--redis-url", redis_url, "--name", f"{name}-{n}"]
            started.append(spawn_python(args, log_dir / f"{name}-{n}.log"))
        yield started
    finally:
        for process in started:
            stop(process)
