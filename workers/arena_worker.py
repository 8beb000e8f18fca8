"""The arena's RQ worker class and its timings: abandoned jobs expire after seconds rather than
RQ's default minutes, so a dead worker's match is noticed and replayed quickly. `workers.inprocess`
builds on it; `workers.worker` starts either."""

from __future__ import annotations

import time
from typing import Any

import redis
from rq import Queue, Worker
from rq.executions import Execution
from rq.job import Job
from rq.worker import WorkerStatus

from arena.services import event_liveness, ladder_runs, sprt_runs
from arena.store.job_queue import job_place
from workers.logs import events, failure_text, job_label

HEARTBEAT_S = 1  # how often a busy worker proves it is alive
HEARTBEAT_SLACK_S = 5  # how long past a missed heartbeat a job counts as abandoned
MAINTENANCE_S = 2  # how often a worker, busy or idle, looks for abandoned jobs (and requeues them)
MAINTENANCE_LOCK_S = 5  # RQ holds it 899 s: a worker killed while cleaning would stop clean-ups
# An idle worker blocks on the queue for worker_ttl - 15 s between maintenance runs (RQ's rule);
# RQ's default of 420 s would leave a dead worker's match unnoticed for minutes.
WORKER_TTL_S = 17

log = events


class ArenaQueue(Queue):
    def acquire_maintenance_lock(self) -> bool:
        return bool(
            self.connection.set(self.registry_cleaning_key, 1, nx=True, ex=MAINTENANCE_LOCK_S)
        )


class ArenaWorker(Worker):
    """An RQ worker whose abandoned jobs expire after seconds: a killed worker's match is
    retried (from scratch, first in the queue) by another worker while the tournament goes on,
    and a match that cannot be played stops its tournament rather than leave it waiting."""

    queue_class = ArenaQueue
    announces_stop = True  # a pool's workers leave the one line saying so to the pool

    def perform_job(self, job: Job, queue: Queue, execution: Execution) -> bool:
        started = time.monotonic()
        events.info("started %s", job_label(job))
        done = bool(super().perform_job(job, queue, execution))
        if done:
            events.info("finished %s in %.1f s", job_label(job), time.monotonic() - started)
        return done

    def handle_exception(self, job: Job, *exc_info: Any) -> None:
        left = job.retries_left
        retried = f" (to be retried, {left} attempt(s) left)" if left else ""
        events.warning("failed %s: %s%s", job_label(job), failure_text(exc_info[1]), retried)
        super().handle_exception(job, *exc_info)

    def request_stop(self, signum: int, frame: Any) -> None:
        if self.announces_stop:
            busy = self.get_state() == WorkerStatus.BUSY
            events.info("stopping" + (": the job in hand finishes first" if busy else ""))
        super().request_stop(signum, frame)  # type: ignore[no-untyped-call]

    def get_heartbeat_ttl(self, job: Any, working_time: float = 0.0) -> int:
        return HEARTBEAT_S + HEARTBEAT_SLACK_S

    def maintain_heartbeats(self, job: Job, execution: Execution) -> None:
        super().maintain_heartbeats(job, execution)
        # RQ cleans up only between jobs: with every worker busy on long matches, a dead
        # worker's match would wait for one of them to finish.
        if self.should_run_maintenance_tasks:
            self.run_maintenance_tasks()

    def run_maintenance_tasks(self) -> None:
        super().run_maintenance_tasks()  # type: ignore[no-untyped-call]
        try:
            event_liveness.check_running(self.connection)
        except Exception:  # a failed check must not stop the worker; the next one may pass
            log.exception("checking running tournaments failed")
        try:
            sprt_runs.check_running(self.connection)
        except Exception:
            log.exception("checking running SPRT tests failed")
        fill_ladders(self.connection)

    def handle_work_horse_killed(self, job: Job, retpid: int, ret_val: int, rusage: Any) -> None:
        super().handle_work_horse_killed(job, retpid, ret_val, rusage)  # type: ignore[no-untyped-call]
        if job.func_name == event_liveness.TOURNAMENT_JOB:
            event_liveness.interrupted(self.connection, *job_place(job), not job.retries_left)


def fill_ladders(client: redis.Redis) -> None:
    """Fill the running ladders (`ladder_runs.fill_running`): the pool keeps them playing, and
    a ladder whose bots were all away, or one a remote bot joined, is paired again."""
    try:
        ladder_runs.fill_running(client)
    except Exception:  # a failed fill must not stop the worker; the next one may pass
        log.exception("filling running ladders failed")
