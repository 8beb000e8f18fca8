"""The series the alerts need: gateway heartbeats, running events' jobs, ladders' numbered
matches, read from Redis at scrape time."""

from __future__ import annotations

import time

import pytest
import redis
from rq import Worker
from rq.executions import Execution
from rq.serializers import JSONSerializer

from arena.gateway.testing import running_arena
from arena.metrics.health_series import job_event
from arena.metrics.server import exposition
from arena.services.sprt_runs import batch_job_id
from arena.services.status import arena_status
from arena.store import keys
from arena.store.job_queue import arena_queue, match_job_id
from arena.store.sprt import SprtDefinition, SprtStore
from arena.store.tournaments import Status, TournamentStore
from tests.metrics.helpers import samples, value
from tests.store.ratings_helpers import make_ladder
from tests.workers.tournaments import create_and_start
from workers.ladder import next_match_number


def test_job_ids_name_their_event() -> None:
    assert job_event(match_job_id("spring_cup", 3, 12)) == ("tournament", "spring_cup")
    assert job_event(batch_job_id("ab_test", 7)) == ("sprt", "ab_test")
    assert job_event("ladder_caper_1_main_m4") is None


def test_a_running_tournament_s_jobs_are_counted_by_state(redis_client: redis.Redis) -> None:
    create_and_start(redis_client, "spring", "round-robin", ["greedy", "random", "search@5"])
    queued = arena_queue(redis_client).count
    assert queued >= 1
    found = samples(exposition(redis_client))
    jobs = {"kind": "tournament", "event": "spring"}
    assert value(found, "arena_event_jobs", state="queued", **jobs) == queued
    assert value(found, "arena_event_jobs", state="started", **jobs) == 0

    # One job taken by a worker: queued one less, started one more.
    queue = arena_queue(redis_client)
    job = queue.dequeue_any([queue], None, connection=redis_client, serializer=JSONSerializer)
    assert job is not None
    taken, _ = job
    with redis_client.pipeline() as pipe:
        Execution.create(taken, 60, pipe)  # what a worker writes as it starts the job
        pipe.execute()
    found = samples(exposition(redis_client))
    assert value(found, "arena_event_jobs", state="queued", **jobs) == queued - 1
    assert value(found, "arena_event_jobs", state="started", **jobs) == 1

    TournamentStore(redis_client).set_status("spring", Status.FINISHED)
    found = samples(exposition(redis_client))
    assert "arena_event_jobs" not in found, "only running events are exported"


def test_a_running_sprt_without_jobs_reads_zero(redis_client: redis.Redis) -> None:
    SprtStore(redis_client).create(SprtDefinition("ab", "search#64", "search#8"))
    found = samples(exposition(redis_client))
    for state in ("queued", "started", "scheduled", "deferred"):
        assert value(found, "arena_event_jobs", kind="sprt", event="ab", state=state) == 0


def test_a_ladder_s_numbered_matches_are_exported(redis_client: redis.Redis) -> None:
    ladder = make_ladder(redis_client)
    for _ in range(3):
        next_match_number(redis_client, ladder)
    found = samples(exposition(redis_client))
    assert value(found, "arena_ladder_matches_total", ladder="main") == 3
    assert value(found, "arena_ladder_rated_results_total", ladder="main") == 0


@pytest.mark.timeout(60)
def test_gateways_read_up_while_they_beat_down_once_silent(
    redis_server_url: str, redis_client: redis.Redis
) -> None:
    redis_client.zadd(keys.gateways(), {"dead": 1.0})  # listed, died without leaving: no beat
    assert samples(exposition(redis_client))["arena_gateway_up"][0].value == 0
    with running_arena(redis_server_url):
        found = gateways_up(redis_client)
        assert list(found.values()) == [1.0] and "dead" not in found, "the dead one is forgotten"
        redis_client.zadd(keys.gateways(), {"dead": 1.0})
        assert gateways_up(redis_client)["dead"] == 0
    assert gateways_up(redis_client) == {"dead": 0}, "a gateway stopping cleanly leaves"


def gateways_up(client: redis.Redis) -> dict[str, float]:
    """Gateway -> arena_gateway_up, once some gateway is listed."""
    deadline = time.monotonic() + 30
    while "arena_gateway_up" not in (found := samples(exposition(client))):
        assert time.monotonic() < deadline, "no gateway listed"
        time.sleep(0.1)
    return {s.labels["gateway"]: s.value for s in found["arena_gateway_up"]}


def test_a_worker_whose_key_expired_is_not_counted_alive(redis_client: redis.Redis) -> None:
    queue = arena_queue(redis_client)
    alive, killed = (Worker([queue], connection=redis_client, name=n) for n in ("alive", "killed"))
    for worker in (alive, killed):
        worker.register_birth()  # type: ignore[no-untyped-call]
    redis_client.pexpire(killed.key, 1)  # killed at once: its key expires, its entry stays
    time.sleep(0.05)
    assert Worker.count(connection=redis_client) == 2  # RQ's registry still lists it
    assert value(samples(exposition(redis_client)), "arena_workers") == 1
    assert [w.name for w in arena_status(redis_client).workers] == ["alive"]
