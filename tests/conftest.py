"""Shared fixtures: one real Redis server per test session (REDIS_URL or an embedded one)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis

from arena.store.server import connect, redis_url


@pytest.fixture(scope="session")
def redis_server_url() -> Iterator[str]:
    with redis_url() as url:
        yield url


@pytest.fixture
def redis_client(redis_server_url: str) -> Iterator[redis.Redis]:
    """A client on an empty database, emptied again afterwards."""
    client = connect(redis_server_url)
    client.flushdb()
    yield client
    client.flushdb()
    client.close()
