"""`arena bench web-replay`: the replay page's load figures, measured once."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from arena.bench.web_replay import replay_page
from arena.cli import main

pytestmark = pytest.mark.timeout(120)


def test_the_bench_loads_a_200_move_replay_and_reports_its_figures() -> None:
    figures = replay_page(fetches=1)
    assert 200 <= figures.moves <= 210
    assert figures.frames_sent < figures.frames_bytes
    assert min(figures.page_ms, figures.frames_cold_ms, figures.frames_warm_ms) > 0
    assert figures.full_ms >= figures.page_ms and figures.browser_ms is None
    done = CliRunner().invoke(main, ["bench", "web-replay", "-n", "1"])
    assert done.exit_code == 0, done.output
    assert f"Replay page of a {figures.moves}-move game" in done.output
