"""The live workers read in three round trips are what RQ's own reads give, and reading them
writes nothing."""

from __future__ import annotations

import redis
from rq import Worker
from rq.serializers import JSONSerializer

from arena.bench.worker_fleet import register_busy_workers
from arena.services.rq_workers import live_workers
from arena.store.job_queue import arena_queue


def rq_view(client: redis.Redis) -> list[tuple[object, ...]]:
    found = Worker.all(connection=client, serializer=JSONSerializer)
    return sorted(
        (w.name, tuple(w.queue_names()), w.get_state(), w.get_current_job_id(), w.last_heartbeat)
        for w in found
    )


def test_live_workers_are_what_rq_reads_of_busy_idle_and_dead_workers(
    redis_client: redis.Redis,
) -> None:
    busy = register_busy_workers(redis_client, 3, "cup")
    idle = Worker([arena_queue(redis_client)], connection=redis_client, name="idle-one")
    idle.register_birth()  # type: ignore[no-untyped-call]
    dead = Worker([arena_queue(redis_client)], connection=redis_client, name="dead-one")
    dead.register_birth()  # type: ignore[no-untyped-call]
    redis_client.delete(dead.key)  # its key expired; its name is still listed
    ended = busy[1].get_current_executions()[0]
    redis_client.delete(ended.key)  # an execution whose hash expired is over

    before = redis_client.dbsize()
    ours = [
        (w.name, w.queues, w.state, w.current_job, w.last_heartbeat)
        for w in live_workers(redis_client)
    ]
    assert redis_client.dbsize() == before and redis_client.scard("rq:workers") == 5

    assert [name for name, *_ in ours] == [
        "bench-worker-000", "bench-worker-001", "bench-worker-002", "idle-one",
    ]  # fmt: skip
    assert [job for *_, job, _ in ours] == ["match_cup_r1_b0", None, "match_cup_r1_b2", None]
    assert ours == rq_view(redis_client)
