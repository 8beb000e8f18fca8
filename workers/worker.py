"""The worker entry point: RQ workers on the arena queue, tuned so a dead worker's match is
noticed and replayed in seconds rather than RQ's default minutes."""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
from typing import Any

from rq import Worker
from rq.serializers import JSONSerializer

import workers.jobs  # noqa: F401 - imported once here, so every forked job starts warm
from arena.metrics.recorder import record_job_failure
from arena.store.server import connect
from workers.queue import QUEUE_NAME

HEARTBEAT_S = 2  # how often a busy worker proves it is alive
HEARTBEAT_SLACK_S = 8  # how long past a missed heartbeat a job counts as abandoned
MAINTENANCE_S = 5  # how often a worker looks for abandoned jobs (and requeues them)
# An idle worker blocks on the queue for worker_ttl - 15 s between maintenance runs (RQ's rule);
# RQ's default of 420 s would leave a dead worker's match unnoticed for minutes.
WORKER_TTL_S = 20


class ArenaWorker(Worker):
    """An RQ worker whose abandoned jobs expire after seconds: a killed worker's match is
    retried (from scratch) by another worker while the tournament goes on."""

    def get_heartbeat_ttl(self, job: Any, working_time: float = 0.0) -> int:
        return HEARTBEAT_S + HEARTBEAT_SLACK_S


def work(redis_url: str, burst: bool = False, name: str | None = None) -> None:
    """Run one worker in this process until stopped (or, with `burst`, until the queue is empty)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    worker = ArenaWorker(
        [QUEUE_NAME],
        connection=connect(redis_url),
        serializer=JSONSerializer,
        job_monitoring_interval=HEARTBEAT_S,
        maintenance_interval=MAINTENANCE_S,
        worker_ttl=WORKER_TTL_S,
        name=name,
        exception_handlers=[record_job_failure],  # arena_worker_failures_total, via Redis
    )
    worker.work(burst=burst, with_scheduler=False)


def work_pool(redis_url: str, processes: int, name: str | None = None) -> None:
    """`processes` workers, each its own process (RQ forks again for every job)."""
    children = [
        multiprocessing.Process(
            target=work,
            args=(redis_url, False, f"{name}-{n}" if name else None),
            name=f"arena-worker-{n}",
        )
        for n in range(processes)
    ]
    for child in children:
        child.start()
    try:
        for child in children:
            child.join()
    except KeyboardInterrupt:
        for child in children:
            if child.pid is not None:
                os.kill(child.pid, signal.SIGTERM)
        for child in children:
            child.join(timeout=30)
