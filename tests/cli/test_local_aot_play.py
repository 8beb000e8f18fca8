"""Age of Thieves in the local commands once registered: `arena play --game age-of-thieves` for 2
to 4 thieves (one board, so no city), records `arena replay` reads back, and `arena bench engine
--game all` measures it for every number of players."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arena.cli import main


def arena(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False, terminal_width=200)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_play_saves_records_that_replay(tmp_path: Path, players: int) -> None:
    bots = ["random"] * players
    out = arena("play", "--game", "age-of-thieves", "--players", str(players), "-n", "2",
                "--save", str(tmp_path), *bots)  # fmt: skip
    assert out.exit_code == 0, out.output
    suffix = f"-{players}p" if players != 2 else ""
    names = sorted(path.name for path in tmp_path.iterdir())
    assert names == [f"age-of-thieves{suffix}-seed{1 + d}-deal{d}-0.json" for d in (0, 1)]
    record = json.loads((tmp_path / names[0]).read_text())
    assert record["game"] == "age-of-thieves" and "city" not in record["config"]
    out = arena("replay", str(tmp_path / names[0]))
    assert out.exit_code == 0, out.output
    assert "game over" in out.output


def test_play_with_a_wrong_number_of_thieves_is_a_clear_error() -> None:
    out = arena("play", "--game", "age-of-thieves", "--players", "5", *["random"] * 5)
    assert out.exit_code == 1
    assert "2, 3 or 4 players" in out.output and "Traceback" not in out.output


def test_bench_engine_all_measures_age_of_thieves_for_2_3_and_4() -> None:
    out = arena("bench", "engine", "--game", "all", "--seconds", "0.2")
    assert out.exit_code == 0, out.output
    for label in ("(one board):", "(one board, 3 players):", "(one board, 4 players):"):
        assert f"age-of-thieves {label}" in out.output
    assert "caper (paris):" in out.output  # the other games unchanged
