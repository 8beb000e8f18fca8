"""A started ladder is kept playing by the worker pool alone (`arena worker` processes on the
real Redis, no matchmaker process): its matches are played and rated, each match's job and the
workers' maintenance fill it again, a killed worker's match does not leave its bots busy, and a
stopped ladder's matches in play finish and are rated while nothing more is queued."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
import redis
from rq.job import Job, JobStatus
from rq.registry import StartedJobRegistry
from rq.serializers import JSONSerializer

from arena.services import ladders
from arena.services.ladder_runs import FILL_EVERY_S, ladder_job_id
from arena.store.job_queue import QUEUE_NAME
from arena.store.ladder_runs import LadderRuns
from arena.store.ladders import LadderDefinition, LadderStore, ladder_ref
from arena.store.ratings import RatingStore
from tests.workers.conftest import StartWorker, WorkerProcess
from workers.ladder import ladder_match_id

pytestmark = pytest.mark.timeout(400)

SLOW_PAIR = ("search#90", "search#60")  # a match of 4 games takes seconds: time to kill it


def _until(check: Callable[[], bool], what: str, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.1)


def _ladder(client: redis.Redis, bots: tuple[str, ...], games: int = 2) -> LadderDefinition:
    definition = LadderDefinition(
        ladder_ref("pool"), games_per_match=games, remote=False, bots=bots
    )
    LadderStore(client).create(definition)
    return definition


def _quiet_after_stop(client: redis.Redis, definition: LadderDefinition) -> int:
    """Stop the ladder, let the match in play end, and check nothing more is queued for a
    while (past several of the pool's fills); the number of its last match."""
    ladders.stop(client, definition.ref)
    runs, slug = LadderRuns(client), definition.ref.slug
    _until(lambda: not runs.in_flight(slug), "the matches in flight ended")
    last = runs.sequence(slug)
    time.sleep(2 * FILL_EVERY_S + 0.5)
    assert runs.sequence(slug) == last and not runs.in_flight(slug), "stopped: no more fills"
    return last


def test_a_started_ladder_is_played_and_rated_by_the_workers_alone(
    redis_client: redis.Redis, start_worker: StartWorker
) -> None:
    ladder = _ladder(redis_client, ("random", "greedy"))
    start_worker("pool-a"), start_worker("pool-b")
    assert ladders.start(redis_client, ladder.ref, concurrency=2) == 1, "one pair of two bots"
    ratings, slug = RatingStore(redis_client), ladder.ref.slug
    # Each match's job queues the next as it ends: more results than the start queued.
    _until(lambda: len(ratings.results(ladder)) >= 4, "four matches were rated")
    # A bot enabled while it runs is paired by the workers' own fills.
    LadderStore(redis_client).set_bots(ladder.ref, ["random", "greedy", "search#4", "search#6"])
    _until(lambda: len(LadderRuns(redis_client).in_flight(slug)) == 2, "two matches in flight")
    _until(
        lambda: {"search#4", "search#6"} <= {name for name, _ in ratings.leaderboard(ladder)},
        "the new bots were rated",
    )
    last = _quiet_after_stop(redis_client, ladder)
    assert _rated_or_stopped(redis_client, ladder, range(1, last + 1)) >= 6


def test_a_ladder_whose_bots_were_all_away_is_picked_up_by_the_workers(
    redis_client: redis.Redis, start_worker: StartWorker
) -> None:
    ladder = _ladder(redis_client, ("random",))
    start_worker("pool-idle")
    assert ladders.start(redis_client, ladder.ref) == 0, "one bot cannot play"
    LadderStore(redis_client).set_bots(ladder.ref, ["random", "greedy"])  # queues nothing
    _until(lambda: len(RatingStore(redis_client).results(ladder)) >= 1, "a match was rated")
    _quiet_after_stop(redis_client, ladder)


def test_a_killed_workers_match_does_not_leave_its_bots_busy(
    redis_client: redis.Redis, start_worker: StartWorker
) -> None:
    ladder = _ladder(redis_client, SLOW_PAIR, games=4)
    assert ladders.start(redis_client, ladder.ref, concurrency=1) == 1
    runs, slug = LadderRuns(redis_client), ladder.ref.slug
    (killed,) = runs.in_flight(slug)
    job = Job.fetch(killed.job_id, redis_client, serializer=JSONSerializer)
    job.retries_left = 0  # its last attempt: RQ fails it for good when its worker dies
    job.save()
    doomed = start_worker("doomed")
    _started_by(redis_client, killed.job_id, doomed)
    doomed.kill()
    assert [m.job_id for m in runs.in_flight(slug)] == [killed.job_id], "busy until found"
    start_worker("survivor")  # finds the match abandoned; its fill frees and re-seats the bots
    _until(lambda: runs.sequence(slug) >= 2, "the bots were paired again", timeout_s=120)
    assert job.get_status(refresh=True) is JobStatus.FAILED
    assert killed.job_id not in {m.job_id for m in runs.in_flight(slug)}
    again = Job.fetch(ladder_job_id(slug, 2), redis_client, serializer=JSONSerializer)
    assert set(again.args[2:]) == set(SLOW_PAIR), "both bots free to play again"
    last = _quiet_after_stop(redis_client, ladder)
    _rated_or_stopped(redis_client, ladder, range(2, last + 1))
    assert ladder_match_id(slug, 1) not in _rated(redis_client, ladder)


def _rated(client: redis.Redis, definition: LadderDefinition) -> set[str]:
    return {r.result_id for r in RatingStore(client).results(definition)}


def _rated_or_stopped(client: redis.Redis, definition: LadderDefinition, numbers: range) -> int:
    """Every job of `numbers` finished: rated, or (queued when the ladder stopped) not played;
    how many were rated."""
    slug = definition.ref.slug
    ids = [ladder_job_id(slug, n) for n in numbers]
    jobs = Job.fetch_many(ids, client, serializer=JSONSerializer)
    outcomes = [job.return_value() if job is not None else None for job in jobs]
    assert all(isinstance(o, dict) and (o["rated"] or o.get("stopped")) for o in outcomes)
    rated = {
        ladder_match_id(slug, n) for n, o in zip(numbers, outcomes, strict=True) if o and o["rated"]
    }
    assert rated == _rated(client, definition) - {
        ladder_match_id(slug, n) for n in range(1, numbers.start)
    }
    return len(rated)


def _started_by(client: redis.Redis, job_id: str, worker: WorkerProcess) -> None:
    """Wait until `worker` has played the match for a moment."""
    registry = StartedJobRegistry(QUEUE_NAME, connection=client, serializer=JSONSerializer)

    def playing() -> bool:
        if job_id not in registry.get_job_ids(cleanup=False):
            return False
        job = Job.fetch(job_id, connection=client, serializer=JSONSerializer)
        return job.worker_name == worker.name

    _until(playing, f"{worker.name} started {job_id}", timeout_s=90)
    time.sleep(0.5)
