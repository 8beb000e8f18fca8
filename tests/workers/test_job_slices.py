"""A job plays a slice of a round's matches: RQ's cost per job is shared by many short matches,
while a lost or killed slice is replayed from where it stopped and nothing counts twice."""

from __future__ import annotations

import time

import pytest
import redis
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer

from arena.services import event_liveness, event_runs
from arena.store.job_queue import arena_queue, boards_per_job, job_place
from arena.store.tournaments import Status, TournamentStore
from tests.workers.tournaments import create_and_start, work_in_process

FIELD = [f"random/{n}" for n in range(1, 7)]  # a round robin of 5 rounds of 3 boards


@pytest.mark.parametrize(
    ("games_per_match", "boards", "workers", "size"),
    [
        (4, 306, 2, 16),  # enough matches for JOB_GAMES games a job
        (20, 306, 2, 4),
        (100, 306, 2, 1),  # a long match is a job by itself
        (64, 10, 2, 1),
        (4, 9, 2, 3),  # 3 jobs: still 2 for each worker... rounded up
        (4, 9, 0, 5),  # no worker yet: counted as one
        (4, 512, 64, 4),  # a large pool keeps every worker busy
        (1, 1, 1, 1),
    ],
)
def test_a_job_plays_enough_games_while_every_worker_has_jobs(
    games_per_match: int, boards: int, workers: int, size: int
) -> None:
    assert boards_per_job(games_per_match, boards, workers) == size


def test_each_round_of_short_matches_is_one_job_playing_every_board(
    redis_client: redis.Redis,
) -> None:
    create_and_start(redis_client, "sliced", "round-robin", FIELD, games_per_match=4)
    jobs = arena_queue(redis_client).jobs
    assert [job_place(job) for job in jobs] == [("sliced", r, 0, 3) for r in range(1, 6)]
    assert "random/1 vs random/6" in str(jobs[0].description)
    work_in_process(redis_client)
    store = TournamentStore(redis_client)
    assert store.status("sliced") is Status.FINISHED and len(store.results("sliced")) == 15
    assert set(store.attempts("sliced").values()) == {1}


def test_a_slice_run_again_plays_only_its_unrecorded_matches(redis_client: redis.Redis) -> None:
    create_and_start(redis_client, "resumed", "round-robin", FIELD, games_per_match=4)
    first = event_runs.play(redis_client, "resumed", 1, 0)  # as a killed slice had done
    work_in_process(redis_client)
    store = TournamentStore(redis_client)
    assert store.status("resumed") is Status.FINISHED and len(store.results("resumed")) == 15
    assert store.results("resumed")[first.encounter_id] == first, "kept, not replayed"
    assert set(store.attempts("resumed").values()) == {1}
    ids = ["resumed.r1.b1", first.encounter_id, "resumed.r9.b0"]
    assert store.results_of("resumed", ids) == [store.results("resumed")[ids[0]], first, None]


def test_a_lost_slice_is_queued_again_once_for_all_its_matches(
    redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    create_and_start(redis_client, "lost", "round-robin", FIELD, games_per_match=4)
    queue = arena_queue(redis_client)
    victim = queue.job_ids[2]
    Job.fetch(victim, redis_client, serializer=JSONSerializer).delete()  # a lossy Redis
    work_in_process(redis_client)
    store = TournamentStore(redis_client)
    assert store.status("lost") is Status.RUNNING and len(store.results("lost")) == 12
    event_liveness.check(redis_client, "lost")
    later = time.time() + event_liveness.MISSING_GRACE_S
    monkeypatch.setattr(time, "time", lambda: later)
    event_liveness.check(redis_client, "lost")
    assert queue.job_ids == [victim], "one job for the slice's three matches"
    work_in_process(redis_client)
    assert store.status("lost") is Status.FINISHED and len(store.results("lost")) == 15


def test_a_started_slice_shows_one_match_in_play_and_the_rest_queued(
    redis_client: redis.Redis,
) -> None:
    create_and_start(redis_client, "shown", "round-robin", FIELD, games_per_match=4)
    arena_queue(redis_client).jobs[0].set_status(JobStatus.STARTED)  # round 1's slice
    assert event_liveness.check(redis_client, "shown") == {"started": 1, "queued": 14}


def test_tables_are_sliced_too_and_a_lost_slice_of_them_is_queued_again_once(
    redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    nine = [f"random/{n}" for n in range(1, 10)]  # Swiss pods: three tables of three a round
    create_and_start(redis_client, "pods", "swiss", nine, rounds=2, games_per_match=3, players=3)
    queue = arena_queue(redis_client)
    job, last = queue.jobs  # no worker yet (counted as one): two jobs for it
    assert [job_place(job), job_place(last)] == [("pods", 1, 0, 2), ("pods", 1, 2, 1)]
    assert "round 1 tables 1-2: random/" in str(job.description)
    job.delete()  # lost
    work_in_process(redis_client)
    event_liveness.check(redis_client, "pods")
    later = time.time() + event_liveness.MISSING_GRACE_S
    monkeypatch.setattr(time, "time", lambda: later)
    event_liveness.check(redis_client, "pods")
    assert queue.job_ids == [job.id], "one job for the slice's two tables"
    work_in_process(redis_client)
    store = TournamentStore(redis_client)
    assert store.status("pods") is Status.FINISHED
    assert set(store.attempts("pods").values()) == {1} and len(store.attempts("pods")) == 6
