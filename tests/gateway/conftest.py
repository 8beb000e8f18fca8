"""A running arena (real gateway on a loopback port, real Redis) for each test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis

from arena.gateway.testing import Arena, running_arena


@pytest.fixture
def arena(redis_client: redis.Redis, redis_server_url: str) -> Iterator[Arena]:
    with running_arena(redis_server_url) as running:
        yield running
