"""SPRT tests played by real `arena worker` processes: they end at a bound, queue nothing after,
and count every pair exactly once, when a worker is SIGKILLed mid-batch or a batch runs twice."""

from __future__ import annotations

import contextlib
import os
import signal
import time

import pytest
import redis
from rq.registry import StartedJobRegistry
from rq.serializers import JSONSerializer

from arena.services.sprt_runs import JOB_FUNCTION, batch_job_id, play_batch, start
from arena.store import keys
from arena.store.job_queue import QUEUE_NAME, arena_queue, retry_policy
from arena.store.sprt import SprtDefinition, SprtStatus, SprtStore, State
from tests.workers.conftest import StartWorker, WorkerProcess
from workers.processes import descendants

pytestmark = pytest.mark.timeout(400)

SLOW = ("search#90", "search#60")  # test and base: a pair takes seconds, time to kill it


def test_greedy_against_random_accepts_h1_on_the_pool(
    redis_client: redis.Redis, start_worker: StartWorker
) -> None:
    definition = SprtDefinition("gr", "greedy", "random", elo0=0.0, elo1=50.0, batch_pairs=2,
                                parallel=3)  # fmt: skip
    start(redis_client, definition)
    workers = [start_worker("sprt-1"), start_worker("sprt-2")]
    status = _wait_over(redis_client, "gr", workers)
    assert status.state is State.ACCEPTED_H1, status
    assert status.llr >= definition.bounds[1]
    assert status.counts[4] == status.pairs, "greedy sweeps every pair against random"
    assert redis_client.hlen(keys.sprt_applied("gr")) == status.pairs
    _drained(redis_client, workers)
    assert SprtStore(redis_client).status("gr").pairs == status.pairs, "nothing counted after"
    queued = SprtStore(redis_client).queued_batches("gr")
    # a batch played before the decision queued the one `parallel` ahead; none was queued after
    assert queued <= -(-status.pairs // definition.batch_pairs) + definition.parallel
    assert not arena_queue(redis_client).job_ids, "no batch left waiting"


def test_a_lost_batch_job_is_queued_again_by_the_workers(
    redis_client: redis.Redis, start_worker: StartWorker
) -> None:
    definition = SprtDefinition("lost", "greedy", "random", elo0=0.0, elo1=50.0, parallel=1)
    start(redis_client, definition)
    lost = arena_queue(redis_client).fetch_job(batch_job_id("lost", 0))
    assert lost is not None
    lost.delete()  # as a lossy Redis would
    worker = start_worker("finder")  # its maintenance finds the batch gone and queues it again
    status = _wait_over(redis_client, "lost", [worker])
    assert status.state is State.ACCEPTED_H1, status
    assert "batch 0 had no job left: queued again" in worker.output()


def test_a_worker_killed_mid_batch_counts_each_pair_once(
    redis_client: redis.Redis, start_worker: StartWorker
) -> None:
    definition = SprtDefinition("kill", *SLOW, elo0=0.0, elo1=0.001, max_pairs=4,
                                batch_pairs=4, parallel=1)  # fmt: skip
    start(redis_client, definition)
    victim = start_worker("victim")
    _counted_at_least(redis_client, "kill", 1, victim)
    before = redis_client.hlen(keys.sprt_applied("kill"))
    victim.kill()
    assert before < 4, "killed mid-batch, with pairs left"
    survivor = start_worker("survivor")  # finds the batch abandoned, retries it from the front
    status = _wait_over(redis_client, "kill", [survivor])
    assert status.state is State.CAPPED, status
    assert status.pairs == 4 and redis_client.hlen(keys.sprt_applied("kill")) == 4
    job = arena_queue(redis_client).fetch_job(batch_job_id("kill", 0))
    assert job is not None and job.worker_name == "survivor"
    assert job.retries_left is not None and job.retries_left < retry_policy().max


def test_a_work_horse_killed_mid_batch_counts_each_pair_once(
    redis_client: redis.Redis, start_worker: StartWorker
) -> None:
    definition = SprtDefinition("horse", *SLOW, elo0=0.0, elo1=0.001, max_pairs=4,
                                batch_pairs=4, parallel=1)  # fmt: skip
    start(redis_client, definition)
    worker = start_worker("stable", fork=True)  # only a forking worker has horses to kill
    _counted_at_least(redis_client, "horse", 1, worker)
    for pid in descendants(worker.process.pid):  # the horse; the worker lives on
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    assert redis_client.hlen(keys.sprt_applied("horse")) < 4, "killed mid-batch"
    status = _wait_over(redis_client, "horse", [worker])
    assert status.state is State.CAPPED, status
    assert status.pairs == 4 and redis_client.hlen(keys.sprt_applied("horse")) == 4
    assert worker.process.poll() is None, "the worker itself carries on"


def test_a_batch_run_twice_at_once_counts_each_pair_once(
    redis_client: redis.Redis, start_worker: StartWorker
) -> None:
    definition = SprtDefinition("twice", *SLOW, elo0=0.0, elo1=0.001, max_pairs=3,
                                batch_pairs=3, parallel=1)  # fmt: skip
    start(redis_client, definition)
    arena_queue(redis_client).enqueue(JOB_FUNCTION, args=("twice", 0), job_id="sprt_twice_copy")
    workers = [start_worker("one"), start_worker("two")]
    status = _wait_over(redis_client, "twice", workers)
    assert status.state is State.CAPPED and status.pairs == 3, status
    assert redis_client.hlen(keys.sprt_applied("twice")) == 3
    assert play_batch(redis_client, "twice", 0)["counted"] == [], "a late rerun counts nothing"
    assert SprtStore(redis_client).status("twice").counts == status.counts


def _wait_over(client: redis.Redis, name: str, workers: list[WorkerProcess]) -> SprtStatus:
    deadline = time.monotonic() + 300
    store = SprtStore(client)
    while (status := store.status(name)).state is State.RUNNING:
        logs = "\n".join(w.output() for w in workers)
        assert time.monotonic() < deadline, f"{name} never ended: {status}\n{logs}"
        time.sleep(0.1)
    return status


def _counted_at_least(client: redis.Redis, name: str, pairs: int, worker: WorkerProcess) -> None:
    deadline = time.monotonic() + 120
    while client.hlen(keys.sprt_applied(name)) < pairs:
        assert time.monotonic() < deadline, f"no pair counted\n{worker.output()}"
        time.sleep(0.05)


def _drained(client: redis.Redis, workers: list[WorkerProcess]) -> None:
    """Wait until no job is queued or in play (the batches in flight at the decision end)."""
    registry = StartedJobRegistry(QUEUE_NAME, connection=client, serializer=JSONSerializer)
    deadline = time.monotonic() + 120
    while arena_queue(client).count or registry.get_job_ids(cleanup=False):
        logs = "\n".join(w.output() for w in workers)
        assert time.monotonic() < deadline, f"jobs left\n{logs}"
        time.sleep(0.1)
