"""`arena play --game age-of-thieves` with the built-in bots that play it (greedy, search#N,
random) for 2 to 4 thieves, and `arena replay` of their records, whole and from one seat."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arena.bots import make_bot
from arena.cli import main
from arena.games import get_game
from arena.games.action_words import action_words
from arena.play.local import play_game

LINEUPS = {2: ["greedy", "random"], 3: ["greedy", "random", "search#1"],
           4: ["greedy", "random", "random", "search#1"]}  # fmt: skip


def arena(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False, terminal_width=200)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_play_and_replay_with_greedy_and_search(tmp_path: Path, players: int) -> None:
    bots = LINEUPS[players]
    out = arena("play", "--game", "age-of-thieves", "--players", str(players), "-n", "1",
                "--save", str(tmp_path), *bots)  # fmt: skip
    assert out.exit_code == 0, out.output
    assert "greedy" in out.output and "1 games" in out.output
    (record,) = tmp_path.iterdir()
    assert json.loads(record.read_text())["players"] == bots  # each bot played its own seat
    out = arena("replay", str(record))
    assert out.exit_code == 0, out.output
    assert "game over" in out.output and "result: " in out.output
    assert "drawn" not in out.output  # section 19: nobody escaped is not a draw
    seen = arena("replay", "--seat", "1", str(record))
    assert seen.exit_code == 0, seen.output
    assert "plan (hidden)" in seen.output  # seat 0's plan, built behind its screen (8)


def test_an_unknown_bot_is_a_clear_error() -> None:
    out = arena("play", "--game", "age-of-thieves", "greedy", "cleverest")
    assert out.exit_code == 1
    assert "unknown bot 'cleverest'" in out.output and "Traceback" not in out.output


def test_four_thieves_name_each_seat_and_a_game_nobody_escaped_is_lost_by_everyone(
    tmp_path: Path,
) -> None:
    out = arena("play", "--game", "age-of-thieves", "--players", "4", "-n", "1",
                "random", "random/2", "random/3", "random/4")  # fmt: skip
    assert out.exit_code == 0, out.output
    assert "player" not in out.output  # the headers were "as player" four times
    assert all(f"seat {seat}" in out.output for seat in range(4))
    bots = [make_bot("random") for _ in range(4)]
    played = play_game(get_game("age-of-thieves"), {"players": 4}, 1, bots, ["a", "b", "c", "d"])
    assert played.result is not None and played.result.details["everyone_loses"]
    record = tmp_path / "lost.json"
    record.write_text(played.record.dumps())
    out = arena("replay", str(record))
    assert out.exit_code == 0, out.output
    assert "game over: everyone lost" in out.output and "result: everyone lost" in out.output
    plans = [a for a in played.record.actions if a.startswith("plan ")]
    assert plans and not any(f"{plan}\n" in out.output for plan in plans)  # ids: named now
    assert action_words("age-of-thieves", plans[0]) in out.output
