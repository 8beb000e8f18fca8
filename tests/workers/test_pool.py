"""How a worker pool keeps its size: `replace_the_dead` on real child processes."""

from __future__ import annotations

import sys
import time
from multiprocessing import Process
from multiprocessing.connection import wait

import pytest

from workers import worker


def crash() -> None:
    sys.exit(3)


def stop_as_asked() -> None:
    sys.exit(0)


def serve() -> None:
    time.sleep(60)


def test_a_child_dead_before_the_pool_looks_is_replaced_and_watched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A death the pool's wait never saw (the child died before the pool first looked) still
    gets a replacement: deciding who is running apart from who died lost such a child."""
    monkeypatch.setattr(worker, "RESTART_PAUSE_S", 0.0)
    dead, stopped, alive = (
        Process(target=crash),
        Process(target=stop_as_asked),
        Process(target=serve),
    )
    children = [dead, stopped, alive]
    for child in children:
        child.start()
    dead.join(30)
    stopped.join(30)
    started: list[int] = []

    def replacement(n: int) -> Process:
        started.append(n)
        return Process(target=serve)

    try:
        running = worker.replace_the_dead(children, replacement)
        assert started == [0] and children[1:] == [stopped, alive]
        assert running == [children[0], alive] and all(c.is_alive() for c in running)
        children[0].kill()  # a death after the pass wakes the wait on what it returned
        assert wait([child.sentinel for child in running], timeout=30) == [children[0].sentinel]
        children[0].join(30)  # its pipe closes a moment before its exit status is there
        assert worker.replace_the_dead(children, replacement)[1] is alive
        assert started == [0, 0]
    finally:
        for child in children:
            child.kill()
            child.join(30)
