"""`arena demo`: the whole arena on one machine, a Swiss with an external SDK bot over gRPC."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from arena.cli import main

pytestmark = pytest.mark.timeout(240)


def test_the_demo_plays_a_swiss_with_an_external_bot_and_shuts_down(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)  # the demo starts its own embedded Redis
    out = CliRunner().invoke(main, ["demo", "--rounds", "2", "--games-per-match", "2"])
    assert out.exit_code == 0, out.output
    assert re.search(
        r"Swiss demo-\w+: 8 entrants \(sdk-\w+ plays over gRPC\), 2 rounds", out.output
    )
    assert re.search(r"demo-\w+ finished in", out.output)
    standings = out.output[out.output.index("standings (finished)") :]
    assert re.search(r"│ \d │ sdk-\w+ +│", standings), "the external bot is ranked"
    for name in ("random", "greedy", "search#8", "search#128"):
        assert name in standings
    assert "crosstable" in out.output
    assert out.output.rstrip().endswith("Gateway, workers and the external bot stopped.")
