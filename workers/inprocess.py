"""A worker that plays each match in its own process, without RQ's fork per job.

RQ's default worker forks a work-horse for every job: a few milliseconds of fork, copy-on-write
faults and fresh Redis connections per match, which at 4-20 games a match cost more than the
games. Here the worker plays the match itself. What the fork gave is kept otherwise:

- A killed worker is a killed match, and the abandoned-job path replays it: the job's heartbeat
  (beaten every HEARTBEAT_S by a thread while the match plays) runs out, and another worker's
  clean-up retries it at the front of the queue (`jobs.match_failed`, `liveness`).
- Maintenance still runs while busy (a dead worker's match must not wait for every live worker
  to finish a long match), from the same thread. RQ's clean-up runs failure callbacks under a
  SIGALRM timeout, which only the main thread may set: the thread's clean-up uses a timer
  instead (a thread of its own), so it never touches the alarm timing the match in hand.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from redis.client import Pipeline
from rq.executions import Execution
from rq.job import Job
from rq.queue import Queue
from rq.registry import StartedJobRegistry
from rq.timeouts import TimerDeathPenalty
from rq.utils import now
from rq.worker import WorkerStatus

from arena.services import event_liveness
from workers.arena_worker import HEARTBEAT_S, ArenaWorker, fill_ladders

log = logging.getLogger("arena.workers")


class InProcessWorker(ArenaWorker):
    """An `ArenaWorker` that runs each job in its own process and thread. The job's timeout is
    RQ's SIGALRM: a timer would start and join a thread for every match."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # One thread for the worker's life: starting one per job cost a thread switch per match.
        self._heart = _Heartbeat(self)

    def execute_job(self, job: Job, queue: Queue) -> None:
        execution = self.prepare_execution(job)
        try:
            self.perform_job(job, queue, execution)
        finally:
            self._heart.release()
        self.set_state(WorkerStatus.IDLE)

    def prepare_job_execution(self, job: Job, remove_from_intermediate_queue: bool = False) -> None:
        super().prepare_job_execution(job, remove_from_intermediate_queue)
        execution = self.execution
        if execution is not None:
            self._heart.hold(job, execution)

    def handle_execution_ended(self, job: Job, queue: Queue, heartbeat_ttl: int) -> None:
        # Before the job is marked finished or failed: a heartbeat after that would put the
        # execution back in the started registry, and a clean-up would retry a finished match.
        self._heart.release()
        super().handle_execution_ended(job, queue, heartbeat_ttl)

    def heartbeat(self, timeout: int | None = None, pipeline: Pipeline | None = None) -> None:
        """RQ's worker heartbeat in one round trip rather than three: it runs three times a
        job, which at a few games a match cost about as much as a game."""
        if pipeline is not None:
            super().heartbeat(timeout, pipeline)
            return
        with self.connection.pipeline(transaction=False) as batch:
            super().heartbeat(timeout, batch)
            batch.execute()

    def kill_horse(self, sig: Any = None) -> None:
        """No horse: RQ's `Worker.kill_horse` would signal this worker's own process group."""

    def beat(self, job: Job, execution: Execution) -> None:
        """One heartbeat from the thread, and the clean-up when it is due."""
        super(ArenaWorker, self).maintain_heartbeats(job, execution)
        if self.should_run_maintenance_tasks:
            self._clean_abandoned_jobs()

    def _clean_abandoned_jobs(self) -> None:
        for queue in self.queues:
            if queue.acquire_maintenance_lock():
                StartedJobRegistry(
                    queue.name,
                    connection=self.connection,
                    job_class=self.job_class,
                    serializer=self.serializer,
                    death_penalty_class=TimerDeathPenalty,
                ).cleanup(exception_handlers=self._exc_handlers)
                queue.release_maintenance_lock()  # type: ignore[no-untyped-call]
        self.last_cleaned_at = now()  # type: ignore[assignment]  # RQ types it None
        event_liveness.check_running(self.connection)
        fill_ladders(self.connection)


class _Heartbeat(threading.Thread):
    """Beats the heartbeat of the job in hand every HEARTBEAT_S while the main thread plays it."""

    def __init__(self, worker: InProcessWorker) -> None:
        super().__init__(name="arena heartbeat", daemon=True)
        self._worker = worker
        self._lock = threading.Lock()  # held while beating: `release` waits for a beat to end
        self._in_hand: tuple[Job, Execution] | None = None

    def hold(self, job: Job, execution: Execution) -> None:
        with self._lock:
            self._in_hand = (job, execution)
        if not self.is_alive():
            self.start()

    def release(self) -> None:
        """No beat for the job from now on."""
        with self._lock:
            self._in_hand = None

    def run(self) -> None:
        while True:
            time.sleep(HEARTBEAT_S)
            with self._lock:
                if self._in_hand is None:
                    continue
                try:
                    self._worker.beat(*self._in_hand)
                except Exception:  # Redis away for a moment: the next beat may pass
                    log.exception("heartbeat of %s failed", self._in_hand[0].id)
