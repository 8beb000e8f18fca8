"""`arena demo`: the whole arena on one machine, a Swiss with an external SDK bot over gRPC."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from arena.cli import main

pytestmark = pytest.mark.timeout(240)


@pytest.mark.parametrize(("game", "city"), [("caper", "paris"), ("caper-europe", "barcelona")])
def test_the_demo_plays_a_swiss_with_an_external_bot_and_shuts_down(
    monkeypatch: pytest.MonkeyPatch, game: str, city: str
) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)  # the demo starts its own embedded Redis
    args = ["demo", "--rounds", "2", "--games-per-match", "2", "--game", game, "--city", city]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0, out.output
    text = " ".join(out.output.split())  # the console wraps long lines
    heading = (
        rf"Swiss demo-\w+ of {game} \({city}\): 8 entrants \(sdk-\w+ plays over gRPC\), 2 rounds"
    )
    assert re.search(heading, text)
    assert re.search(r"demo-\w+ finished in", text)
    standings = out.output[out.output.index("standings (finished)") :]
    assert re.search(r"│ \d │ sdk-\w+ +│", standings), "the external bot is ranked"
    for name in ("random", "greedy", "search#8", "search#128"):
        assert name in standings
    assert "crosstable" in out.output
    assert text.endswith("Gateway, workers and the external bot stopped.")
