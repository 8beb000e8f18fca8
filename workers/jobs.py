"""RQ jobs: small importable functions taking ids (python-rq's habit); the work is elsewhere."""

from __future__ import annotations

from collections.abc import Sequence
from types import TracebackType

import redis
from rq import get_current_job
from rq.exceptions import AbandonedJobError
from rq.job import Job

from arena.services import event_liveness, event_runs
from arena.store.job_queue import job_place
from arena.store.tournaments import TournamentStore


def play_tournament_match(
    name: str, round_number: int, board: int, count: int = 1
) -> dict[str, object]:
    """Play `count` boards of a round from `board` on: a slice of its matches or tables."""
    job = get_current_job()
    assert job is not None, "run by an RQ worker"
    boards = range(board, board + count)
    try:
        definition = TournamentStore(job.connection).get(name)
        played = event_runs.play_boards(job.connection, name, round_number, boards, definition)
    except Exception as error:
        if not job.retries_left:  # the last attempt: say why the tournament cannot finish
            failed = event_liveness.first_unrecorded(job.connection, name, round_number, boards)
            event_runs.stop_after_failure(job.connection, name, round_number, failed, error)
        raise
    return {"matches": [_points(p.encounter_id, p.points) for p in played]}


def _points(the_id: str, points: Sequence[float]) -> dict[str, object]:
    return {"match_id": the_id, "game_points": list(points)}


def match_failed(
    job: Job,
    connection: redis.Redis,
    exc_type: type[BaseException],
    error: BaseException,
    tb: TracebackType | None,
) -> None:
    """The match job's failure callback. A raised error was dealt with above; a job abandoned
    by a killed worker (found by another worker's clean-up), or stopped cold mid-match in a
    worker playing it in-process (RQ raises SystemExit in the job), is only seen here."""
    if issubclass(exc_type, (AbandonedJobError, SystemExit, KeyboardInterrupt)):
        event_liveness.interrupted(connection, *job_place(job), not job.retries_left)
