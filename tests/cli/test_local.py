"""The local `arena` commands, run as a user would (through click), errors included."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from arena.cli import main


def arena(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_play_prints_wins_scores_and_seat_rates(tmp_path: Path) -> None:
    out = arena("play", "greedy", "random", "--games", "3", "--duplicate", "--city", "london", "--save", str(tmp_path))  # fmt: skip
    assert out.exit_code == 0, out.output
    assert "6 games" in out.output
    assert "A: greedy" in out.output and "B: random" in out.output
    assert "Duplicate pairs: A won" in out.output
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 6
    record = json.loads(records[0].read_text())
    assert record["game"] == "caper" and record["config"] == {"city": "london"}
    assert record["result"]["winner"] in (0, 1)


def test_replay_prints_every_action_and_the_score(tmp_path: Path) -> None:
    arena("play", "random", "random", "-n", "1", "--save", str(tmp_path))
    record_path = next(tmp_path.glob("*.json"))
    record = json.loads(record_path.read_text())
    out = arena("replay", str(record_path))
    assert out.exit_code == 0, out.output
    for action in record["actions"][:5]:
        assert action in out.output
    assert "stolen goods" in out.output and "result:" in out.output


def test_replay_of_a_corrupted_record_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(
        '{"game": "caper", "rules_version": 1, "config": {}, "seed": 1, "actions": ["fly"]}'
    )
    out = arena("replay", str(path))
    assert out.exit_code == 1
    assert "Error: action 1 ('fly') does not replay" in out.output
    assert "Traceback" not in out.output


def test_unknown_bot_and_city_are_clear_errors() -> None:
    out = arena("play", "wizard", "random")
    assert out.exit_code == 1 and "unknown bot 'wizard'" in out.output
    out = arena("play", "random", "random", "--city", "berlin")
    assert out.exit_code == 1 and "unknown city 'berlin'" in out.output


def test_cards_lists_the_city_catalogue() -> None:
    out = arena("cards", "--city", "rome")
    assert out.exit_code == 0
    assert "The Soprano" in out.output and "The Bookie" not in out.output


def test_bench_engine_prints_its_figures() -> None:
    out = arena("bench", "engine", "--seconds", "0.3")
    assert out.exit_code == 0
    assert "games/s" in out.output and "decisions/s" in out.output


def test_bench_engine_refuses_rounds_it_would_not_use() -> None:
    out = arena("bench", "engine", "--seconds", "0.1", "--rounds", "2")
    assert out.exit_code == 2 and "add that flag" in out.output
    assert "games/s" not in out.output
