"""The SPRT batch job and its failure callback: RQ entry points taking ids. Queueing, playing
and checking the batches is `arena.services.sprt_runs`."""

from __future__ import annotations

from types import TracebackType

import redis
from rq import get_current_job
from rq.exceptions import AbandonedJobError
from rq.job import Job

from arena.services.sprt_runs import BotAwayError, play_batch
from arena.store.job_queue import RETRIES
from arena.store.sprt import SprtStore


def play_sprt_batch(name: str, batch: int) -> dict[str, object]:
    """The RQ job: play the batch's pairs not yet counted, then queue the next batch."""
    job = get_current_job()
    assert job is not None, "run by an RQ worker"
    try:
        return play_batch(job.connection, name, batch)
    except Exception as error:
        if not job.retries_left:  # the last attempt: say why the test cannot go on
            why = str(error) if isinstance(error, BotAwayError) else repr(error)
            SprtStore(job.connection).stop(
                name, f"batch {batch} failed on every attempt ({RETRIES + 1}): {why}"
            )
        raise


def batch_failed(
    job: Job,
    connection: redis.Redis,
    exc_type: type[BaseException],
    error: BaseException,
    tb: TracebackType | None,
) -> None:
    """The batch job's failure callback. A raised error was dealt with in the job; a job
    abandoned by a killed worker is only seen here: its pairs counted so far stand, the retry
    plays the rest, and after the last attempt the test stops, saying why."""
    if issubclass(exc_type, (AbandonedJobError, SystemExit, KeyboardInterrupt)):
        name, batch = job.args
        if not job.retries_left:
            reason = f"batch {batch}: its worker died on every attempt ({RETRIES + 1})"
            SprtStore(connection).stop(name, reason)
