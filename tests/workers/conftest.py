"""Real worker processes (`python -m arena worker`) on the session's real Redis server."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import pytest

from workers.processes import kill_tree


@dataclass
class WorkerProcess:
    name: str
    process: subprocess.Popen[bytes]
    log: Path

    def kill(self) -> None:
        """SIGKILL the worker and any work-horse it forked, as when a machine dies (RQ puts
        the horse in a session of its own, so the worker's process group alone misses it)."""
        kill_tree(self.process)

    def stop(self) -> None:
        self.ask_to_stop()
        self.wait_stopped()

    def ask_to_stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)

    def wait_stopped(self) -> None:
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.kill()

    def output(self) -> str:
        return self.log.read_text(errors="replace")


class StartWorker(Protocol):
    def __call__(
        self, name: str, redis_url: str | None = None, fork: bool = False
    ) -> WorkerProcess: ...


@pytest.fixture
def start_worker(redis_server_url: str, tmp_path: Path) -> Iterator[StartWorker]:
    """Start `arena worker` processes (on the session's Redis unless told another)."""
    started: list[WorkerProcess] = []

    def start(name: str, redis_url: str | None = None, fork: bool = False) -> WorkerProcess:
        """`fork`: RQ's work-horse per job (`--fork-per-job`) rather than in-process matches."""
        log = tmp_path / f"{name}.log"
        with log.open("wb") as out:
            command = ["worker", "--name", name, "--redis-url", redis_url or redis_server_url]
            command += ["--fork-per-job"] if fork else []
            process = subprocess.Popen(
                [sys.executable, "-m", "arena", *command],
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: kill() takes the horse too
            )
        worker = WorkerProcess(name, process, log)
        started.append(worker)
        return worker

    yield start
    for worker in started:  # all told first: their warm shutdowns overlap
        worker.ask_to_stop()
    for worker in started:
        worker.wait_stopped()
