"""The worker entry point: RQ workers on the arena queue, tuned so a dead worker's match is
noticed and replayed in seconds rather than RQ's default minutes."""

from __future__ import annotations

import logging
import signal
import time
from multiprocessing import Process
from multiprocessing.connection import wait
from typing import Any

from rq import Queue, Worker
from rq.executions import Execution
from rq.job import Job
from rq.serializers import JSONSerializer

import workers.jobs  # noqa: F401 - imported once here, so every forked job starts warm
from arena.metrics.recorder import record_job_failure
from arena.store.outages import connect_patiently
from arena.store.server import connect
from workers import liveness, sprt
from workers.processes import signals_deferred
from workers.queue import QUEUE_NAME, job_place

HEARTBEAT_S = 1  # how often a busy worker proves it is alive
HEARTBEAT_SLACK_S = 5  # how long past a missed heartbeat a job counts as abandoned
MAINTENANCE_S = 2  # how often a worker, busy or idle, looks for abandoned jobs (and requeues them)
MAINTENANCE_LOCK_S = 5  # RQ holds it 899 s: a worker killed while cleaning would stop clean-ups
# An idle worker blocks on the queue for worker_ttl - 15 s between maintenance runs (RQ's rule);
# RQ's default of 420 s would leave a dead worker's match unnoticed for minutes.
WORKER_TTL_S = 17
STOP_GRACE_S = 30.0  # how long a stopping pool lets the matches in hand finish
RESTART_PAUSE_S = 1.0  # before a dead worker of a pool is replaced

log = logging.getLogger("arena.workers")


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
            liveness.check_running(self.connection)
        except Exception:  # a failed check must not stop the worker; the next one may pass
            log.exception("checking running tournaments failed")
        try:
            sprt.check_running(self.connection)
        except Exception:
            log.exception("checking running SPRT tests failed")

    def handle_work_horse_killed(self, job: Job, retpid: int, ret_val: int, rusage: Any) -> None:
        super().handle_work_horse_killed(job, retpid, ret_val, rusage)  # type: ignore[no-untyped-call]
        if job.func_name == liveness.TOURNAMENT_JOB:
            liveness.interrupted(self.connection, *job_place(job), not job.retries_left)


def work(redis_url: str, burst: bool = False, name: str | None = None, fork: bool = False) -> None:
    """Run one worker in this process until stopped (or, with `burst`, until the queue is empty).
    It plays each match itself (`workers.inprocess`), or with `fork` in a work-horse forked for
    the match, as RQ does by default: slower, but a crash of the match spares the worker."""
    from workers.inprocess import InProcessWorker  # it builds on ArenaWorker, defined here

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    connect(redis_url).ping()  # a wrong URL fails at once; a lost Redis is waited for below
    worker_class = ArenaWorker if fork else InProcessWorker
    worker = worker_class(
        [QUEUE_NAME],
        connection=connect_patiently(redis_url),
        serializer=JSONSerializer,
        job_monitoring_interval=HEARTBEAT_S,
        maintenance_interval=MAINTENANCE_S,
        worker_ttl=WORKER_TTL_S,
        name=name,
        exception_handlers=[record_job_failure],  # arena_worker_failures_total, via Redis
    )
    worker.work(burst=burst, with_scheduler=False)


def work_pool(redis_url: str, processes: int, name: str | None = None, fork: bool = False) -> None:
    """`processes` workers, each its own process (`work`), a worker that dies replaced (a match
    that crashes its worker is replayed elsewhere, but the pool must not shrink). Ctrl-C, or
    SIGTERM (which the `arena` command turns into a KeyboardInterrupt), stops them all."""
    children = [_worker_process(redis_url, name, f"{n}", fork) for n in range(processes)]
    replaced = 0
    try:
        with signals_deferred():  # an interrupt mid-start would leave a child unknown
            for child in children:
                child.start()
        while any(child.is_alive() for child in children):
            wait([child.sentinel for child in children if child.is_alive()])
            for n, child in enumerate(children):
                if child.is_alive() or child.exitcode == 0:
                    continue  # running, or stopped as asked
                log.warning("worker %s died (exit code %s): starting another", n, child.exitcode)
                time.sleep(RESTART_PAUSE_S)  # a worker that cannot start must not spin
                replaced += 1  # a new name: the dead one's stays registered until its TTL ends
                with signals_deferred():
                    children[n] = _worker_process(redis_url, name, f"{n}.{replaced}", fork)
                    children[n].start()
    finally:
        _stop_workers([child for child in children if child.pid is not None])


def _worker_process(redis_url: str, name: str | None, slot: str, fork: bool) -> Process:
    return Process(
        target=_work_in_child,
        args=(redis_url, f"{name}-{slot}" if name else None, fork),
        name=f"arena-worker-{slot}",
    )


def _work_in_child(redis_url: str, name: str | None, fork: bool) -> None:
    # A forked child inherits the parent's handlers, here the ones holding signals back while
    # it starts children: a stop signal must stop it until RQ installs its own.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    work(redis_url, False, name, fork)


def _stop_workers(children: list[Process]) -> None:
    """A warm stop first (each finishes the match in hand), a cold one after STOP_GRACE_S (RQ
    kills the match, which is replayed elsewhere), and SIGKILL if even that hangs. A child that
    got Ctrl-C from the terminal too ignores our SIGTERM: RQ takes a second signal within a
    second as the same request."""
    steps = ((Process.terminate, STOP_GRACE_S), (Process.terminate, 10.0), (Process.kill, 10.0))
    for send, wait_s in steps:
        running = [child for child in children if child.is_alive()]
        for child in running:
            send(child)
        deadline = time.monotonic() + wait_s
        for child in running:
            child.join(max(deadline - time.monotonic(), 0))
