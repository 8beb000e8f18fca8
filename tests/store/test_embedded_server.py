"""The embedded redis-server stops on its SHUTDOWN when its block ends, with clients still
connected (a gateway's, a worker's), and is not left for the kill after the wait."""

from __future__ import annotations

import os

import pytest

from arena.store import server
from arena.store.server import connect, embedded_redis


def test_the_embedded_redis_stops_on_shutdown_without_being_killed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    signalled: list[tuple[int, int]] = []
    real_kill = os.kill

    def kill(pid: int, signal: int) -> None:  # the real kill, recorded
        signalled.append((pid, signal))
        real_kill(pid, signal)

    monkeypatch.setattr(os, "kill", kill)
    with embedded_redis() as url:
        still_connected = connect(url)
        pid = int(still_connected.info()["process_id"])
    assert not server._alive(pid)
    assert signalled == [], "the server ignored its SHUTDOWN and was killed"
