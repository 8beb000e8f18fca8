"""`arena replay` and `arena bench engine` with 3- and 4-player Caper (section 12): every seat's
score, the team that won, a seat's replay that keeps the other seats' passes face down (V4, V9),
and engine figures for every number of players."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arena.cli import main
from arena.games.caper import CAPER
from arena.games.record import GameRecord


def arena(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False, terminal_width=200)


def saved_game(tmp_path: Path, players: int, seed: int = 3) -> tuple[Path, GameRecord]:
    config: dict[str, str | int] = {"city": "rome", "players": players}
    rng = random.Random(seed)
    state = CAPER.create(config, seed)
    texts = []
    while not CAPER.is_terminal(state):
        action = rng.choice(list(CAPER.legal_actions(state)))
        texts.append(CAPER.action_text(action))
        state = CAPER.apply(state, action)
    names = tuple(f"bot{seat}" for seat in range(players))
    result = CAPER.result(state).to_json()
    record = GameRecord("caper", 1, config, seed, tuple(texts), names, result=result)
    path = tmp_path / f"game{players}.json"
    path.write_text(record.dumps())
    return path, record


def test_replay_of_a_snitch_game_scores_all_three_seats(tmp_path: Path) -> None:
    path, record = saved_game(tmp_path, 3)
    out = arena("replay", str(path))
    assert out.exit_code == 0, out.output
    assert "lower mastermind" in out.output and "sixth of higher" in out.output
    assert f"result: bot{record.result['winner']} wins" in out.output  # type: ignore[index]
    assert next(text for text in record.actions if text.startswith("give ")) in out.output


def test_replay_of_a_team_game_names_both_winners(tmp_path: Path) -> None:
    path, record = saved_game(tmp_path, 4)
    out = arena("replay", str(path))
    assert out.exit_code == 0, out.output
    winner = record.result["winner"]  # type: ignore[index]
    assert f"result: bot{winner} and bot{winner + 2} win" in out.output
    assert "discards" in out.output


@pytest.mark.parametrize(("players", "seat", "passer"), [(3, 0, "give"), (4, 1, "send")])
def test_a_seats_replay_keeps_other_seats_passes_face_down(
    tmp_path: Path, players: int, seat: int, passer: str
) -> None:
    path, record = saved_game(tmp_path, players)
    out = arena("replay", str(path), "--seat", str(seat))
    assert out.exit_code == 0, out.output
    assert f"{passer} two cards" in out.output
    assert not any(text in out.output for text in record.actions if text.startswith(passer))
    own = arena("replay", str(path), "--seat", "2")
    assert next(t for t in record.actions if t.startswith(passer)) in own.output


def test_replay_from_a_seat_the_game_does_not_have_is_a_clear_error(tmp_path: Path) -> None:
    path, _ = saved_game(tmp_path, 3)
    out = arena("replay", str(path), "--seat", "3")
    assert out.exit_code == 1
    assert "seats 0, 1 and 2, not 3" in out.output and "Traceback" not in out.output


def test_bench_engine_reports_every_number_of_players() -> None:
    out = arena("bench", "engine", "--game", "all", "--seconds", "0.2")
    assert out.exit_code == 0, out.output
    for label in ("caper (paris):", "caper (paris, 3 players):", "caper (paris, 4 players):"):
        assert label in out.output
    assert "caper-europe (paris):" in out.output
    assert "caper-europe (paris, 3" not in out.output
