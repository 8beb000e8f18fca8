"""A game's end in words, from its stored result, as the CLI's replay and the game page say it."""

from __future__ import annotations

from arena.games.record import outcome_text

PLAYERS = ["ann", "bob", "cat", "dan"]


def result(winner: int | None, **details: object) -> dict[str, object]:
    return {"scores": [0, 0, 0, 0], "winner": winner, "details": details}


def test_a_winner_a_team_everyone_lost_and_a_draw_are_told_apart() -> None:
    assert outcome_text(result(2), PLAYERS) == "cat wins"
    assert outcome_text(result(0, winners=[0, 2]), ["x", "y", "x", "y"]) == "x wins"
    assert outcome_text(result(1, winners=[1, 3]), PLAYERS) == "bob and dan win"
    assert outcome_text(result(None, everyone_loses=True, winners=[]), PLAYERS) == "everyone lost"
    assert outcome_text(result(None), PLAYERS) == "drawn"
