"""`arena metrics` rides out a Redis restart: scrapes say Redis is down, then read it again."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import redis
from prometheus_client.samples import Sample

from arena.metrics.recorder import record_voided
from tests.metrics.helpers import samples, value
from tests.workers.redis_server import restartable_redis

pytestmark = pytest.mark.timeout(180)


def test_the_exporter_rides_out_a_redis_restart(tmp_path: Path) -> None:
    with restartable_redis(tmp_path) as server:
        record_voided(redis.Redis.from_url(server.url), "caper", 3)
        port = _free_port()
        log = tmp_path / "metrics.log"
        with log.open("wb") as out:
            command = ["metrics", "--redis-url", server.url, "--host", "127.0.0.1"]
            exporter = subprocess.Popen(
                [sys.executable, "-m", "arena", *command, "--port", str(port)],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        try:
            found = _scrape(port)
            assert value(found, "arena_redis_up") == 1
            assert value(found, "arena_voided_games_total", game="caper") == 3

            server.kill()
            for _ in range(3):  # each waits its patience out, then reports the outage
                assert value(_scrape(port), "arena_redis_up") == 0
            assert exporter.poll() is None, log.read_text()
            server.start()

            found = _scrape(port)
            assert value(found, "arena_redis_up") == 1, "the same process reads Redis again"
            assert value(found, "arena_voided_games_total", game="caper") == 3, "data kept"
            text = log.read_text()
            assert text.count("could not read Redis") == 1, text
            assert text.count("Redis unreachable") == 1 and "Traceback" not in text, text
        finally:
            exporter.terminate()
            exporter.wait(20)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _scrape(port: int) -> dict[str, list[Sample]]:
    """One scrape, waiting for the exporter to listen at first."""
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as reply:
                return samples(reply.read())
        except (ConnectionError, urllib.error.URLError):
            assert time.monotonic() < deadline, "the exporter never answered"
            time.sleep(0.1)
