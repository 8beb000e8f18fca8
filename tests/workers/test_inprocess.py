"""The default worker plays each match in its own process (no work-horse per job): it keeps the
match's heartbeat going from a thread, so a long match is never taken for abandoned, and a
killed worker's match is still replayed through the abandoned-job path (test_faults,
test_liveness)."""

from __future__ import annotations

import os
import signal
import time
from typing import cast

import pytest
import redis
from rq.registry import StartedJobRegistry
from rq.serializers import JSONSerializer

from arena.metrics.recorder import VOIDED, read_counter
from arena.store.job_queue import QUEUE_NAME, arena_queue
from arena.store.tournaments import Status, TournamentStore
from arena.store.values import as_text
from tests.workers.conftest import StartWorker
from tests.workers.tournaments import create_and_start, wait_until_over
from workers.processes import descendants

pytestmark = pytest.mark.timeout(300)

SLOW_PAIR = ["search#90", "search#60"]


def test_a_long_match_keeps_its_heartbeat_and_is_played_once_without_a_work_horse(
    redis_client: redis.Redis, start_worker: StartWorker
) -> None:
    create_and_start(redis_client, "long", "round-robin", SLOW_PAIR, games_per_match=12)
    (job_id,) = arena_queue(redis_client).job_ids
    worker = start_worker("beating")
    first = _expiry(redis_client, job_id, "long")
    assert descendants(worker.process.pid) == [], "the match is played in the worker itself"
    start_worker("cleaner")  # cleans up every few seconds: an expired heartbeat would be retried
    while (later := _expiry(redis_client, job_id, "long")) == first:
        time.sleep(0.05)
    assert later > first, "the heartbeat was beaten while the match played"
    assert wait_until_over(redis_client, "long", timeout_s=240) is Status.FINISHED
    assert TournamentStore(redis_client).attempts("long") == {"long.r1.b0": 1}


def test_a_worker_stopped_cold_mid_match_has_it_queued_again_with_its_games_voided(
    redis_client: redis.Redis, start_worker: StartWorker
) -> None:
    create_and_start(redis_client, "cold", "round-robin", SLOW_PAIR, games_per_match=4)
    (job_id,) = arena_queue(redis_client).job_ids
    worker = start_worker("cold-1")
    _expiry(redis_client, job_id, "cold")  # in play
    os.killpg(worker.process.pid, signal.SIGTERM)  # warm: the match would be finished...
    time.sleep(1.5)  # (RQ takes a second signal within a second for the same one)
    os.killpg(worker.process.pid, signal.SIGTERM)  # ... cold: stopped where it is
    assert worker.process.wait(60) is not None
    assert TournamentStore(redis_client).results("cold") == {}, "stopped mid-match"
    assert arena_queue(redis_client).job_ids == [job_id], "queued again at once"
    assert read_counter(redis_client, VOIDED) == {("caper",): 4}
    start_worker("cold-2")
    assert wait_until_over(redis_client, "cold", timeout_s=240) is Status.FINISHED
    assert TournamentStore(redis_client).attempts("cold") == {"cold.r1.b0": 2}


def _expiry(client: redis.Redis, job_id: str, name: str) -> float:
    """When the started job's heartbeat runs out, as the started registry holds it (one entry
    per execution, `job_id:execution_id`); waits for the job to start, fails once it ended."""
    registry = StartedJobRegistry(QUEUE_NAME, connection=client, serializer=JSONSerializer)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        entries = client.zrange(registry.key, 0, -1, withscores=True)
        for member, score in cast(list[tuple[bytes, float]], entries):
            if as_text(member).startswith(f"{job_id}:"):
                return score
        status = TournamentStore(client).status(name)
        assert status is Status.RUNNING, f"the match ended ({status.value}) before it was seen"
        time.sleep(0.05)
    raise AssertionError(f"{job_id} was not started within 90 s")
