"""`arena play --players 3|4`: the Snitch table (V12) and the team game (V11) from the command
line, with their one-line errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from arena.cli import main
from arena.cli.common import console


@pytest.fixture(autouse=True)
def wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(console, "width", 200)  # one line a table row: columns are not wrapped


def arena(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def records(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(path.read_text()) for path in sorted(folder.glob("*.json"))]


def test_V11_the_team_game_seats_each_bot_in_both_seats_of_its_team(tmp_path: Path) -> None:
    out = arena("play", "greedy", "random", "--players", "4", "-n", "2", "--duplicate", "--save", str(tmp_path))  # fmt: skip
    assert out.exit_code == 0, out.output
    assert "4 games" in out.output and "mean place" in out.output
    assert "as cream" in out.output and "as mint" in out.output
    assert "Duplicate pairs: A won" in out.output
    saved = records(tmp_path)
    assert len(saved) == 4 and all(r["config"] == {"city": "paris", "players": 4} for r in saved)
    assert saved[0]["players"] == ["greedy", "random", "greedy", "random"]
    assert saved[1]["players"] == ["random", "greedy", "random", "greedy"]


def test_V12_a_duplicate_snitch_table_seats_every_bot_in_every_seat(tmp_path: Path) -> None:
    out = arena("play", "greedy", "random", "random/2", "--players", "3", "--duplicate", "-n", "1", "--city", "rome", "--save", str(tmp_path))  # fmt: skip
    assert out.exit_code == 0, out.output
    assert "3 games" in out.output and "as snitch" in out.output
    assert "C: random/2" in out.output and "Duplicate tables" in out.output
    saved = records(tmp_path)
    assert len(saved) == 3 and {r["seed"] for r in saved} == {1}
    for bot in ("greedy", "random", "random/2"):
        assert sorted(r["players"].index(bot) for r in saved) == [0, 1, 2]
    out = arena("replay", str(sorted(tmp_path.glob("*.json"))[0]))
    assert out.exit_code == 0 and "result:" in out.output


def test_the_place_and_wins_columns_add_up_at_a_table() -> None:
    out = arena("play", "random", "random/2", "random/3", "--players", "3", "-n", "4")
    assert out.exit_code == 0, out.output
    rows = [line for line in out.output.splitlines() if ": random" in line]
    assert len(rows) == 3
    wins = [int(row.split("│")[2]) for row in rows]
    places = [float(row.split("│")[5]) for row in rows]
    assert sum(wins) == 4
    assert abs(sum(places) - 6.0) < 0.05  # places 1, 2 and 3 (or shared) each game


def test_wrong_bot_counts_and_seat_counts_are_one_clear_line() -> None:
    cases = [
        (["greedy", "random", "--players", "3"], "Caper with 3 players needs 3 bots, one for each side (cream, mint and snitch), not 2"),
        (["greedy", "random", "random", "--players", "4"], "Caper with 4 players needs 2 bots, one for each side (cream and mint), not 3"),
        (["greedy", "random", "random"], "Caper with 2 players needs 2 bots"),
        (["greedy", "random", "random", "--players", "3", "--game", "caper-europe"], "Caper: Europe is played by 2 players, not 3"),
        (["greedy", "random", "--players", "5"], "players must be 2, 3 or 4, not 5"),
        (["greedy", "wizard", "random", "--players", "3"], "unknown bot 'wizard'"),
    ]  # fmt: skip
    for args, message in cases:
        out = arena("play", *args)
        assert out.exit_code == 1, out.output
        assert message in out.output and "Traceback" not in out.output
        assert len(out.output.strip().splitlines()) == 1, out.output


def test_a_team_record_without_player_names_replays_with_seat_names(tmp_path: Path) -> None:
    out = arena("play", "greedy", "random", "--players", "4", "-n", "1", "--save", str(tmp_path))
    assert out.exit_code == 0, out.output
    path = next(tmp_path.glob("*.json"))
    record = json.loads(path.read_text())
    del record["players"]
    path.write_text(json.dumps(record))
    out = arena("replay", str(path))
    assert out.exit_code == 0, out.output
    assert "seat 3" in out.output and "result: seat" in out.output
