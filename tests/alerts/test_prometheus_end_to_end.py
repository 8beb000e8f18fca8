"""A real Prometheus (Debian's binary) scrapes a real `arena metrics` exporter, with the arena's
rules loaded: while a worker pool runs the "no live worker" alert stays quiet; once the pool is
stopped and a tournament waits, it fires in Prometheus's own /api/v1/alerts.

The intervals are a second and every `for:` is cut to two (the rules are otherwise those of
helm/arena/alerts/arena-rules.yaml), so the test ends in seconds, not minutes.
"""

from __future__ import annotations

import json
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest
import redis
import yaml

from tests.alerts.test_rules import RULES
from tests.workers.tournaments import create_and_start

pytestmark = pytest.mark.timeout(240)

T = TypeVar("T")
PATIENCE_S = 90.0  # for each step; a loaded 2-core machine starts processes slowly


def test_no_live_worker_fires_in_a_real_prometheus(
    redis_server_url: str, redis_client: redis.Redis, tmp_path: Path
) -> None:
    exporter_port, prometheus_port = free_port(), free_port()
    with ExitStack() as stack:
        workers = stack.enter_context(
            process(tmp_path / "workers.log", "worker", "--processes", "2", url=redis_server_url)
        )
        stack.enter_context(
            process(
                tmp_path / "exporter.log",
                *("metrics", "--host", "127.0.0.1", "--port", str(exporter_port)),
                url=redis_server_url,
            )
        )
        config = prometheus_config(tmp_path, exporter_port)
        stack.enter_context(prometheus(tmp_path, config, prometheus_port))
        api = f"http://127.0.0.1:{prometheus_port}/api/v1"

        # Scraped, with both workers alive: the alert is quiet.
        eventually(lambda: query(api, "arena_workers") == 2.0, "Prometheus never saw 2 workers")
        assert "ArenaNoLiveWorker" not in alerts(api)

        workers.send_signal(signal.SIGTERM)  # the pool stops its workers, which unregister
        workers.wait(PATIENCE_S)
        create_and_start(redis_client, "spring", "round-robin", ["greedy", "random"])
        eventually(lambda: query(api, "arena_workers") == 0.0, "the workers never left")

        state = eventually(
            lambda: alerts(api).get("ArenaNoLiveWorker") == "firing" and "firing",
            "ArenaNoLiveWorker never fired",
        )
        assert state == "firing"


def prometheus_config(folder: Path, exporter_port: int) -> Path:
    rules = yaml.safe_load(RULES.read_text())
    for group in rules["groups"]:
        for rule in group["rules"]:
            if "for" in rule:
                rule["for"] = "2s"
    (folder / "rules.yaml").write_text(yaml.safe_dump(rules))
    config = {
        "global": {"scrape_interval": "1s", "evaluation_interval": "1s", "scrape_timeout": "1s"},
        "rule_files": [str(folder / "rules.yaml")],
        "scrape_configs": [
            {"job_name": "arena", "static_configs": [{"targets": [f"127.0.0.1:{exporter_port}"]}]}
        ],
    }
    path = folder / "prometheus.yml"
    path.write_text(yaml.safe_dump(config))
    return path


@contextmanager
def prometheus(folder: Path, config: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    binary = shutil.which("prometheus") or "/usr/bin/prometheus"
    if not Path(binary).exists():  # a skip would hide an untested alert
        pytest.fail("prometheus is missing: `make test` installs Debian's prometheus package")
    command = [
        binary,
        f"--config.file={config}",
        f"--storage.tsdb.path={folder / 'data'}",
        f"--web.listen-address=127.0.0.1:{port}",
    ]
    with started(folder / "prometheus.log", command) as running:
        yield running


@contextmanager
def process(log: Path, *args: str, url: str) -> Iterator[subprocess.Popen[bytes]]:
    """`arena ARGS --redis-url URL` as its own process."""
    with started(log, [sys.executable, "-m", "arena", *args, "--redis-url", url]) as running:
        yield running


@contextmanager
def started(log: Path, command: list[str]) -> Iterator[subprocess.Popen[bytes]]:
    with log.open("wb") as out:
        running = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        yield running
    except BaseException:
        print(f"--- {log.name}\n{log.read_text(errors='replace')[-4000:]}")
        raise
    finally:
        if running.poll() is None:
            running.terminate()
            try:
                running.wait(30)
            except subprocess.TimeoutExpired:
                running.kill()
                running.wait(10)


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as reply:
        body = json.load(reply)
    assert body["status"] == "success", body
    return body["data"]


def query(api: str, expression: str) -> float | None:
    """The single value of an instant query, None while it has none (or Prometheus is not up)."""
    try:
        found = get(f"{api}/query?" + urllib.parse.urlencode({"query": expression}))["result"]
    except (urllib.error.URLError, ConnectionError):
        return None
    return float(found[0]["value"][1]) if len(found) == 1 else None


def alerts(api: str) -> dict[str, str]:
    """Alert name -> state (pending or firing) of every active alert."""
    return {a["labels"]["alertname"]: a["state"] for a in get(f"{api}/alerts")["alerts"]}


def eventually(check: Callable[[], T], failure: str) -> T:
    deadline = time.monotonic() + PATIENCE_S
    while not (result := check()):
        assert time.monotonic() < deadline, failure
        time.sleep(0.2)
    return result


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
