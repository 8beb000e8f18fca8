"""Exactly-once results: a worker killed mid-match, and jobs that run twice."""

from __future__ import annotations

import dataclasses
import time

import pytest
import redis
from click.testing import CliRunner
from rq.job import Job
from rq.registry import StartedJobRegistry
from rq.serializers import JSONSerializer

from arena.cli import main
from arena.services import event_runs
from arena.services.event_liveness import first_unrecorded
from arena.store.job_queue import QUEUE_NAME, arena_queue, enqueue_round, job_place
from arena.store.results import match_id
from arena.store.tournaments import Status, TournamentStore
from tests.workers.conftest import StartWorker, WorkerProcess
from tests.workers.tournaments import (
    by_place,
    create_and_start,
    outcome,
    wait_until_over,
    work_in_process,
)

pytestmark = pytest.mark.timeout(300)

SLOW_FIELD = ["greedy", "search#60", "search#90", "random"]


def test_a_worker_killed_mid_match_changes_nothing_but_the_time_taken(
    redis_client: redis.Redis, start_worker: StartWorker
) -> None:
    create_and_start(redis_client, "calm", "round-robin", SLOW_FIELD)
    work_in_process(redis_client)
    assert TournamentStore(redis_client).status("calm") is Status.FINISHED

    pool = {name: start_worker(name) for name in ("w1", "w2")}
    create_and_start(redis_client, "storm", "round-robin", SLOW_FIELD)
    job = _a_match_in_progress(redis_client, pool)
    pool[str(job.worker_name)].kill()
    _, round_number, board, count = job_place(job)  # a slice of the round's matches
    in_play = first_unrecorded(redis_client, "storm", round_number, range(board, board + count))
    killed_match = match_id("storm", round_number, in_play)
    assert killed_match not in TournamentStore(redis_client).results("storm"), "killed mid-match"

    assert wait_until_over(redis_client, "storm", timeout_s=240) is Status.FINISHED
    calm, storm = by_place(redis_client, "calm"), by_place(redis_client, "storm")
    assert {k: outcome(m) for k, m in storm.items()} == {k: outcome(m) for k, m in calm.items()}
    attempts = TournamentStore(redis_client).attempts("storm")
    assert attempts.pop(killed_match) == 2, "the abandoned match was played again from scratch"
    assert set(attempts.values()) == {1}


def _a_match_in_progress(client: redis.Redis, pool: dict[str, WorkerProcess]) -> Job:
    """A started job of one of our workers that has been playing for a moment."""
    registry = StartedJobRegistry(QUEUE_NAME, connection=client, serializer=JSONSerializer)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for job_id in registry.get_job_ids():
            job = Job.fetch(job_id, connection=client, serializer=JSONSerializer)
            if job.worker_name in pool and "search#90" in str(job.description or ""):
                time.sleep(0.3)
                return job
        time.sleep(0.05)
    raise AssertionError("no match of search#90 started within a minute")


def test_a_match_played_again_is_not_counted_again(redis_client: redis.Redis) -> None:
    definition = create_and_start(
        redis_client, "again", "round-robin", ["random", "greedy", "search#4"]
    )
    work_in_process(redis_client)
    store = TournamentStore(redis_client)
    before = redis_client.hgetall("arena:tournament:again:results")
    assert store.status("again") is Status.FINISHED and len(before) == 3

    for round_ in store.rounds("again"):  # every job of the tournament, run a second time
        enqueue_round(redis_client, definition, round_)
    assert arena_queue(redis_client).count == 3
    work_in_process(redis_client)
    assert redis_client.hgetall("arena:tournament:again:results") == before
    assert store.status("again") is Status.FINISHED and len(store.rounds("again")) == 3


def test_the_first_recorded_result_of_a_match_is_kept(redis_client: redis.Redis) -> None:
    create_and_start(redis_client, "once", "round-robin", ["random", "greedy"])
    work_in_process(redis_client)
    store = TournamentStore(redis_client)
    (first,) = store.results("once").values()
    flipped = dataclasses.replace(
        first,
        result=dataclasses.replace(
            first.result,
            game_points0=first.result.game_points1,
            game_points1=first.result.game_points0,
        ),
    )
    assert not store.record("once", flipped)
    assert store.results("once")[first.match_id] == first


def test_a_match_that_fails_every_attempt_stops_the_tournament_with_the_reason(
    redis_client: redis.Redis, redis_server_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    redis_url = redis_server_url
    attempts: list[str] = []

    def broken(client: redis.Redis, definition: object, the_id: str, *rest: object) -> None:
        attempts.append(the_id)
        raise RuntimeError("the referee fell over")

    monkeypatch.setattr(event_runs, "_play", broken)
    create_and_start(redis_client, "doomed", "round-robin", ["random", "greedy"])
    work_in_process(redis_client)  # in this process, so the broken referee is the one used
    store = TournamentStore(redis_client)
    assert attempts == ["doomed.r1.b0"] * 4, "the first run and three retries"
    assert store.status("doomed") is Status.STOPPED
    assert "match doomed.r1.b0 failed on every attempt" in store.reason("doomed")
    assert "the referee fell over" in store.reason("doomed")
    assert store.results("doomed") == {}, "nothing is scored for it"
    out = CliRunner().invoke(main, ["tournament", "status", "doomed"], env={"REDIS_URL": redis_url})
    assert "doomed: stopped" in out.output and "referee fell over" in out.output.replace("\n", " ")

    monkeypatch.undo()  # the referee is mended: the organiser resumes the tournament
    out = CliRunner().invoke(main, ["tournament", "resume", "doomed"], env={"REDIS_URL": redis_url})
    assert "doomed resumed: 1 unplayed matches queued again" in out.output, out.output
    work_in_process(redis_client)
    assert store.status("doomed") is Status.FINISHED and len(store.results("doomed")) == 1
    again = CliRunner().invoke(
        main, ["tournament", "resume", "doomed"], env={"REDIS_URL": redis_url}
    )
    assert again.exit_code == 1 and "nothing to resume" in again.output
