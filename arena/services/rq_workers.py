"""The live RQ workers as RQ itself records them (`Worker.all()`, then each worker's
`get_current_job_id()`), read in three round trips however many workers there are.

RQ's own reads take about five round trips a worker (the key's existence, its hash, its set of
executions, each execution's hash) and tidy as they go; the workers page and `arena status`
read the same keys in one pipeline per step and write nothing. A worker whose key has expired
is not live; an execution whose hash has expired is over (RQ skips both the same way).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

import redis
from rq import Worker
from rq.executions import WORKER_EXECUTIONS_KEY_TEMPLATE, Execution
from rq.utils import utcparse
from rq.worker_registration import REDIS_WORKER_KEYS

from arena.store.values import as_text

FIELDS = ("queues", "state", "last_heartbeat")


@dataclass(frozen=True, slots=True)
class LiveWorker:
    name: str
    queues: tuple[str, ...]
    state: str
    current_job: str | None  # the job of one of its live executions, None when idle
    last_heartbeat: datetime.datetime | None


def live_workers(client: redis.Redis) -> list[LiveWorker]:
    """Every live worker, by name."""
    prefix = Worker.redis_worker_namespace_prefix
    names = sorted(as_text(k).removeprefix(prefix) for k in client.smembers(REDIS_WORKER_KEYS))
    pipe = client.pipeline(transaction=False)
    for name in names:
        pipe.hmget(prefix + name, list(FIELDS))
        pipe.smembers(WORKER_EXECUTIONS_KEY_TEMPLATE.format(name))
    replies = pipe.execute() if names else []
    found = []
    for index, name in enumerate(names):
        fields, executions = replies[2 * index], replies[2 * index + 1]
        if any(value is not None for value in fields):  # else the key expired: not live
            found.append((name, [as_text(v) if v is not None else None for v in fields],
                          sorted(as_text(e) for e in executions)))  # fmt: skip
    jobs = _current_jobs(client, [executions for _, _, executions in found])
    return [
        LiveWorker(
            name,
            tuple(queues.split(",")) if queues else (),
            state or "?",
            job,
            utcparse(beat) if beat else None,
        )
        for (name, (queues, state, beat), _), job in zip(found, jobs, strict=True)
    ]


def _current_jobs(client: redis.Redis, executions: Sequence[list[str]]) -> list[str | None]:
    """Per worker, the job of its first execution whose hash still exists."""
    parsed = [[Execution.from_composite_key(key, client) for key in keys] for keys in executions]
    pipe = client.pipeline(transaction=False)
    for one in parsed:
        for execution in one:
            pipe.exists(execution.key)
    alive = iter(pipe.execute() if any(parsed) else [])
    jobs = []
    for one in parsed:
        live = [execution.job_id for execution in one if next(alive)]
        jobs.append(live[0] if live else None)
    return jobs
