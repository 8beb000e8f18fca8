"""`arena demo`: the whole arena on one machine, a Swiss with an external SDK bot over gRPC."""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main


@pytest.mark.parametrize(("game", "city"), [("caper", "paris"), ("caper-europe", "barcelona")])
def test_the_demo_plays_a_swiss_with_an_external_bot_and_shuts_down(
    monkeypatch: pytest.MonkeyPatch, game: str, city: str
) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)  # the demo starts its own embedded Redis
    private_tmp = Path(tempfile.mkdtemp(prefix="arena-demo-test-", dir="/tmp"))  # short: sockets
    monkeypatch.setenv("TMPDIR", str(private_tmp))  # for the processes it starts
    monkeypatch.setattr(tempfile, "tempdir", str(private_tmp))  # and this one
    args = ["demo", "--rounds", "2", "--games-per-match", "2", "--game", game, "--city", city]
    out = CliRunner().invoke(main, args)
    leftovers = list(private_tmp.iterdir())
    shutil.rmtree(private_tmp)
    assert out.exit_code == 0, out.output
    assert leftovers == [], "the demo left temporary folders behind"
    text = " ".join(out.output.split())  # the console wraps long lines
    heading = (
        rf"Swiss demo-\w+ of {game} \({city}\): 8 entrants \(sdk-\w+ plays over gRPC\), 2 rounds"
    )
    assert re.search(heading, text)
    assert re.search(r"demo-\w+ finished in", text)
    assert "(ephemeral: deleted when the demo stops)" in text  # it says it keeps nothing
    standings = out.output[out.output.index("standings (finished)") :]
    assert re.search(r"│ \d │ sdk-\w+ +│", standings), "the external bot is ranked"
    for name in ("random", "greedy", "search#8", "search#128"):
        assert name in standings
    assert "crosstable" in out.output
    assert text.endswith("Gateway, workers and the external bot stopped.")
