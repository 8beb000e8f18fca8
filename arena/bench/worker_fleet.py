"""A fleet of registered RQ workers, each busy with a tournament match, for `arena bench web`'s
workers page: registered as `arena worker` registers them, with RQ's own execution records, so
the page reads exactly what it reads of a live fleet. No job runs; nothing is played.
"""

from __future__ import annotations

import redis
from rq import Worker
from rq.executions import Execution
from rq.job import Job
from rq.serializers import JSONSerializer

from arena.store.job_queue import arena_queue

EXECUTION_TTL_S = 600


def register_busy_workers(client: redis.Redis, count: int, event: str) -> list[Worker]:
    """`count` workers, worker i playing board i of round 1 of tournament `event`."""
    queue = arena_queue(client)
    fleet = []
    for index in range(count):
        worker = Worker([queue], connection=client, name=f"bench-worker-{index:03d}")
        worker.register_birth()  # type: ignore[no-untyped-call]
        job = Job.create(
            "builtins.print", id=f"match_{event}_r1_b{index}", connection=client,
            serializer=JSONSerializer, origin=queue.name,
        )  # fmt: skip
        pipe = client.pipeline()
        job.save(pipeline=pipe)
        Execution.create(job, EXECUTION_TTL_S, pipe, worker_name=worker.name)
        worker.set_state("busy", pipeline=pipe)
        pipe.execute()
        fleet.append(worker)
    return fleet
