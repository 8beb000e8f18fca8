"""The local `arena` commands with Caper: Europe: play, replay, cards with provenance, bench."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arena.cli import main
from arena.cli.common import console
from arena.games.action_words import action_words


def arena(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_play_and_replay_a_barcelona_game(tmp_path: Path) -> None:
    out = arena("play", "greedy", "random", "-n", "1", "--duplicate", "--game", "caper-europe", "--city", "barcelona", "--save", str(tmp_path))  # fmt: skip
    assert out.exit_code == 0, out.output
    records = sorted(tmp_path.glob("caper-europe-barcelona-*.json"))
    assert len(records) == 2
    record = json.loads(records[0].read_text())
    assert record["game"] == "caper-europe" and record["config"] == {"city": "barcelona"}
    out = arena("replay", str(records[0]))
    assert out.exit_code == 0, out.output
    first = record["actions"][0]  # "thief <card id> at ...": the replay names the card
    assert action_words("caper-europe", first) in out.output and first not in out.output
    assert "(marker " in out.output and "stolen goods" in out.output and "result:" in out.output


def test_cards_show_every_card_with_its_provenance(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(console, "width", 300)  # one line a card: phrases are not wrapped
    out = arena("cards", "--game", "caper-europe")
    assert out.exit_code == 0, out.output
    assert "hypno_organ" in out.output and "big_ben" in out.output
    assert "as printed" in out.output and "reconstructed (name printed)" in out.output
    assert "partly printed" in out.output and "cost from a caption" in out.output
    out = CliRunner().invoke(
        main, ["cards", "--game", "caper-europe", "--city", "rome"], terminal_width=400
    )
    assert "soprano" in out.output and "bookie" not in out.output
    out = arena("cards", "--game", "caper-europe", "--city", "berlin")
    assert out.exit_code == 1 and "unknown city 'berlin'" in out.output


def test_bench_engine_reports_both_editions_in_one_run() -> None:
    out = arena("bench", "engine", "--game", "all", "--seconds", "0.2")
    assert out.exit_code == 0, out.output
    assert "caper (paris):" in out.output and "caper-europe (paris):" in out.output
    out = arena("bench", "engine", "--game", "all", "--seconds", "0.2", "--city", "barcelona")
    assert "caper (barcelona): skipped" in out.output
    assert "caper-europe (barcelona):" in out.output and "games/s" in out.output
