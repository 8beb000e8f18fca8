"""RQ jobs: small importable functions taking ids (python-rq's habit); the work is elsewhere."""

from __future__ import annotations

from rq import get_current_job

from workers import tournament


def play_tournament_match(name: str, round_number: int, board: int) -> dict[str, object]:
    job = get_current_job()
    assert job is not None, "run by an RQ worker"
    match = tournament.play(job.connection, name, round_number, board)
    return {
        "match_id": match.match_id,
        "game_points": [match.result.game_points0, match.result.game_points1],
    }
