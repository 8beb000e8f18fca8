"""`arena demo` starts the web site too and prints its URL; `--keep` leaves the whole arena
running after the tournament until Ctrl-C, and then nothing it started survives."""

from __future__ import annotations

import re
import signal
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli.test_processes import (
    Command,
    assert_all_gone,
    command,
    embedded_redis_pid,
    pid_alive,
    tmpdir_for_commands,
)
from tests.web.html_tables import column

__all__ = ["command", "tmpdir_for_commands"]  # the fixtures, shared with the process tests

pytestmark = pytest.mark.timeout(600)

TOURNAMENT_S = 420  # the whole demo tournament: generous on a machine shared with other runs


def wait_for_the_end(demo: Command) -> None:
    deadline = time.monotonic() + TOURNAMENT_S
    while "Ctrl-C stops it" not in demo.output():
        assert demo.process.poll() is None, f"the demo exited:\n{demo.output()}"
        assert time.monotonic() < deadline, f"no end in {TOURNAMENT_S} s:\n{demo.output()}"
        demo.note_descendants()
        time.sleep(0.2)


def test_demo_keep_serves_the_finished_tournament_until_ctrl_c(
    command: Callable[..., Command], tmpdir_for_commands: Path
) -> None:
    demo = command("demo", "--rounds", "2", "--games-per-match", "2", "--keep")
    demo.wait_for_output("Web site http")  # up before the tournament starts
    wait_for_the_end(demo)
    text = demo.output()
    site = re.search(r"Web site (http://127\.0\.0\.1:\d+)", text)
    name = re.search(r"Swiss (demo-\w+)", text)
    assert site and name, text
    with urllib.request.urlopen(f"{site[1]}/tournaments/{name[1]}", timeout=60) as response:
        page = response.read().decode()
    assert "status-finished" in page
    printed = text[text.index("standings (finished)") : text.index("crosstable")]
    ranked = re.findall(r"^\s*│\s*\d+\s*│\s*(\S+)\s*│", printed, re.MULTILINE)
    assert len(ranked) == 8 and column(page, "standings", "entrant") == ranked  # same order
    pid, _ = embedded_redis_pid(text)
    assert demo.stop_with(signal.SIGINT) == 0
    assert "Traceback" not in demo.output()
    assert not pid_alive(pid), "redis-server survived the demo"
    assert_all_gone(demo, tmpdir_for_commands)
