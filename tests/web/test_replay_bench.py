"""`python -m arena.bench_web_replay`: the replay page's load figures, measured once."""

from __future__ import annotations

import pytest

from arena.bench_web_replay import main, replay_page

pytestmark = pytest.mark.timeout(120)


def test_the_bench_loads_a_200_move_replay_and_reports_its_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    figures = replay_page(fetches=1)
    assert 200 <= figures.moves <= 210
    assert figures.frames_sent < figures.frames_bytes
    assert min(figures.page_ms, figures.frames_cold_ms, figures.frames_warm_ms) > 0
    assert figures.full_ms >= figures.page_ms and figures.browser_ms is None
    assert main(["-n", "1"]) == 0
    assert f"Replay page of a {figures.moves}-move game" in capsys.readouterr().out
