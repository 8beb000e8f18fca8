"""A running tournament always has its unplayed matches queued or in play: matches whose worker
dies are replayed first in the queue, and one that can never be played stops the tournament."""

from __future__ import annotations

import contextlib
import io
import os
import signal
import time

import pytest
import redis
from click.testing import CliRunner
from rich.console import Console
from rq.job import Job
from rq.registry import StartedJobRegistry
from rq.serializers import JSONSerializer

from arena.cli import main
from arena.cli.tournament_watch import watch
from arena.metrics.recorder import VOIDED, read_counter
from arena.services import event_liveness
from arena.services.event_liveness import first_unrecorded
from arena.store.job_queue import QUEUE_NAME, arena_queue, job_place
from arena.store.tournaments import Status, TournamentStore
from tests.workers.conftest import StartWorker, WorkerProcess
from tests.workers.tournaments import create_and_start, wait_until_over, work_in_process
from workers.processes import descendants

pytestmark = pytest.mark.timeout(400)

SLOW_PAIR = ["search#90", "search#60"]  # a match of 4 games takes seconds: time to kill it


def test_a_match_whose_worker_is_killed_on_every_attempt_stops_the_tournament(
    redis_client: redis.Redis, redis_server_url: str, start_worker: StartWorker
) -> None:
    create_and_start(redis_client, "cursed", "round-robin", SLOW_PAIR, games_per_match=4)
    (job_id,) = arena_queue(redis_client).job_ids
    for attempt in range(1, 5):  # the first run and three retries, each found abandoned
        worker = start_worker(f"cursed-{attempt}")
        _started_by(redis_client, job_id, worker, attempt)
        worker.kill()
    start_worker("survivor")  # finds the last attempt abandoned too
    assert wait_until_over(redis_client, "cursed", timeout_s=120) is Status.STOPPED
    store = TournamentStore(redis_client)
    assert "match cursed.r1.b0: its worker died on every attempt (4)" in store.reason("cursed")
    assert store.results("cursed") == {}
    assert _voided(redis_client) == 4 * 4, "every attempt voids the match's 4 games"
    out = CliRunner().invoke(
        main, ["tournament", "status", "cursed"], env={"REDIS_URL": redis_server_url}
    )
    assert "cursed: stopped" in out.output and "died on every attempt" in out.output


def test_a_match_whose_work_horse_is_killed_on_every_attempt_stops_the_tournament(
    redis_client: redis.Redis, start_worker: StartWorker
) -> None:
    create_and_start(redis_client, "horses", "round-robin", SLOW_PAIR, games_per_match=4)
    (job_id,) = arena_queue(redis_client).job_ids
    worker = start_worker("stable", fork=True)  # only a forking worker has horses to kill
    for attempt in range(1, 5):  # the worker lives on and sees each of its horses die
        _started_by(redis_client, job_id, worker, attempt)
        _kill_horse(worker)
    assert wait_until_over(redis_client, "horses", timeout_s=60) is Status.STOPPED
    reason = TournamentStore(redis_client).reason("horses")
    assert "match horses.r1.b0: its worker died on every attempt (4)" in reason
    assert _voided(redis_client) == 16
    assert worker.process.poll() is None, "the worker itself carries on"


def test_a_killed_match_is_replayed_before_the_matches_queued_behind_it(
    redis_client: redis.Redis, start_worker: StartWorker
) -> None:
    field = ["search#90", "search#60", "random", "greedy", "search#4", "search#8"]
    create_and_start(redis_client, "busy", "round-robin", field, games_per_match=4)
    worker = start_worker("busy-1")
    killed = _a_slow_match_started_by(redis_client, worker)
    waiting = set(arena_queue(redis_client).job_ids)
    worker.kill()
    assert len(waiting) >= 3, "the queue is full when the worker dies"
    name, round_number, board, count = job_place(killed)  # a slice: one job a round here
    in_play = first_unrecorded(redis_client, name, round_number, range(board, board + count))
    _abandoned(redis_client, killed.id)
    start_worker("busy-2")  # cleans up first: it requeues the killed match, then plays on
    status = wait_until_over(redis_client, "busy", timeout_s=300)
    assert status is Status.FINISHED, TournamentStore(redis_client).reason("busy")
    attempts = TournamentStore(redis_client).attempts("busy")
    assert attempts.pop(f"busy.r{round_number}.b{in_play}") == 2, "replayed from scratch"
    assert set(attempts.values()) == {1}, "the slice's other matches were played once"
    jobs = Job.fetch_many([killed.id, *waiting], redis_client, serializer=JSONSerializer)
    started = {job.id: job.started_at for job in jobs if job is not None}
    replayed = started.pop(killed.id)
    assert replayed is not None and all(s is not None and replayed < s for s in started.values())
    assert _voided(redis_client) == 4


def test_a_cancelled_match_job_stops_the_tournament_with_the_reason(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    create_and_start(redis_client, "cancelled", "round-robin", ["random", "greedy", "search#4"])
    env = {"REDIS_URL": redis_server_url}
    out = CliRunner().invoke(main, ["tournament", "status", "cancelled"], env=env)
    assert "cancelled: running" in out.output and "in play: 0; queued: 3" in out.output
    queue = arena_queue(redis_client)
    victim = queue.job_ids[1]
    Job.fetch(victim, redis_client, serializer=JSONSerializer).cancel()  # as `rq` lets anyone
    work_in_process(redis_client)  # plays what is left; the cancelled match never comes
    store = TournamentStore(redis_client)
    assert store.status("cancelled") is Status.RUNNING, "nothing told the tournament"
    out = CliRunner().invoke(main, ["tournament", "status", "cancelled"], env=env)
    assert "cancelled: stopped" in out.output, out.output
    assert "ended unplayed: its job was canceled" in out.output.replace("\n", " ")
    assert store.status("cancelled") is Status.STOPPED


def test_the_status_of_a_match_whose_only_worker_died_is_queued_not_in_play(
    redis_client: redis.Redis, redis_server_url: str, start_worker: StartWorker
) -> None:
    create_and_start(redis_client, "orphan", "round-robin", SLOW_PAIR, games_per_match=4)
    (job_id,) = arena_queue(redis_client).job_ids
    worker = start_worker("lonely")
    _started_by(redis_client, job_id, worker, 1)
    worker.kill()  # and no worker is left to clean up after it
    _abandoned(redis_client, job_id)
    env = {"REDIS_URL": redis_server_url}
    out = CliRunner().invoke(main, ["tournament", "status", "orphan"], env=env)
    assert "orphan: running" in out.output and "in play: 0; queued: 1" in out.output, out.output
    assert _voided(redis_client) == 4


def test_a_match_whose_job_is_gone_is_queued_again(
    redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    create_and_start(redis_client, "lost", "round-robin", ["random", "greedy", "search#4"])
    queue = arena_queue(redis_client)
    victim = queue.job_ids[0]
    Job.fetch(victim, redis_client, serializer=JSONSerializer).delete()  # as a lossy Redis would
    work_in_process(redis_client)
    store = TournamentStore(redis_client)
    assert store.status("lost") is Status.RUNNING and len(store.results("lost")) == 2
    assert event_liveness.check(redis_client, "lost") == {"missing": 1}
    assert queue.count == 0, "a job missing for a moment may be a round being queued"
    later = time.time() + event_liveness.MISSING_GRACE_S
    monkeypatch.setattr(time, "time", lambda: later)
    assert event_liveness.check(redis_client, "lost") == {"queued": 1}  # as it is once queued again
    assert queue.job_ids == [victim]
    work_in_process(redis_client)
    assert store.status("lost") is Status.FINISHED and len(store.results("lost")) == 3


def test_status_right_after_a_job_is_lost_shows_its_match_queued_again(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    create_and_start(redis_client, "gone", "round-robin", ["random", "greedy"])
    queue = arena_queue(redis_client)
    (victim,) = queue.job_ids
    Job.fetch(victim, redis_client, serializer=JSONSerializer).delete()  # a lossy Redis
    env = {"REDIS_URL": redis_server_url}
    out = CliRunner().invoke(main, ["tournament", "status", "gone"], env=env)
    assert "gone: running" in out.output and "in play: 0; queued: 1" in out.output, out.output
    assert queue.job_ids == [victim]


def _started_by(client: redis.Redis, job_id: str, worker: WorkerProcess, attempt: int) -> None:
    """Wait until `worker` has played the match for a moment (its `attempt`-th run)."""
    registry = StartedJobRegistry(QUEUE_NAME, connection=client, serializer=JSONSerializer)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if job_id in registry.get_job_ids(cleanup=False):
            job = Job.fetch(job_id, connection=client, serializer=JSONSerializer)
            if job.worker_name == worker.name and _attempts(client, job) == attempt:
                time.sleep(0.5)
                return
        time.sleep(0.05)
    raise AssertionError(
        f"{worker.name} did not start attempt {attempt} of {job_id}\n{worker.output()}"
    )


def _attempts(client: redis.Redis, job: Job) -> int:
    name, round_number, board, _ = job_place(job)
    return TournamentStore(client).attempts(name).get(f"{name}.r{round_number}.b{board}", 0)


def _a_slow_match_started_by(client: redis.Redis, worker: WorkerProcess) -> Job:
    registry = StartedJobRegistry(QUEUE_NAME, connection=client, serializer=JSONSerializer)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for job_id in registry.get_job_ids(cleanup=False):
            job = Job.fetch(job_id, connection=client, serializer=JSONSerializer)
            if job.worker_name == worker.name and "search#90" in str(job.description):
                time.sleep(0.5)
                return job
        time.sleep(0.05)
    raise AssertionError(f"no match of search#90 started\n{worker.output()}")


def _abandoned(client: redis.Redis, job_id: str) -> None:
    """Wait until the killed job's heartbeat has run out (as RQ's clean-up will find it)."""
    registry = StartedJobRegistry(QUEUE_NAME, connection=client, serializer=JSONSerializer)
    deadline = time.monotonic() + 60
    while job_id not in registry.get_expired_job_ids():
        assert time.monotonic() < deadline, f"{job_id} never ran out of heartbeats"
        time.sleep(0.1)


def _kill_horse(worker: WorkerProcess) -> None:
    """SIGKILL the work-horse RQ forked for the match; the worker lives on."""
    for pid in descendants(worker.process.pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _voided(client: redis.Redis) -> int:
    return read_counter(client, VOIDED).get(("caper",), 0)


def test_watching_a_tournament_whose_match_can_no_longer_be_played_ends_stopped(
    redis_client: redis.Redis,
) -> None:
    create_and_start(redis_client, "watched", "round-robin", ["random", "greedy", "search#4"])
    queue = arena_queue(redis_client)
    Job.fetch(queue.job_ids[1], redis_client, serializer=JSONSerializer).cancel()
    work_in_process(redis_client)  # plays what is left; the cancelled match never comes
    console = Console(file=io.StringIO())
    assert watch(console, redis_client, "watched", timeout_s=60) is Status.STOPPED
    assert "its job was canceled" in TournamentStore(redis_client).reason("watched")
