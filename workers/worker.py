"""The worker entry point: RQ workers on the arena queue, tuned so a dead worker's match is
noticed and replayed in seconds rather than RQ's default minutes."""

from __future__ import annotations

import itertools
import signal
import time
from collections.abc import Callable
from multiprocessing import Process
from multiprocessing.connection import wait
from typing import Any

from rq import Queue, Worker
from rq.executions import Execution
from rq.job import Job
from rq.serializers import JSONSerializer
from rq.worker import WorkerStatus

import workers.jobs  # noqa: F401 - imported once here, so every forked job starts warm
from arena.metrics.recorder import record_job_failure
from arena.store.outages import connect_patiently
from arena.store.server import connect
from workers import liveness, sprt
from workers.logs import configure, events, failure_text, job_label
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


def work(
    redis_url: str,
    burst: bool = False,
    name: str | None = None,
    fork: bool = False,
    verbosity: int = 0,
    in_pool: bool = False,
) -> None:
    """Run one worker in this process until stopped (or, with `burst`, until the queue is empty).
    It plays each match itself (`workers.inprocess`), or with `fork` in a work-horse forked for
    the match, as RQ does by default: slower, but a crash of the match spares the worker.
    `verbosity` as `workers.logs.configure`; `in_pool`: the pool says when it stops."""
    from workers.inprocess import InProcessWorker  # it builds on ArenaWorker, defined here

    configure(verbosity)
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
    worker.announces_stop = not in_pool
    events.info("worker %s listening on queue %s", worker.name, QUEUE_NAME)
    worker.work(burst=burst, with_scheduler=False)


def work_pool(
    redis_url: str,
    processes: int,
    name: str | None = None,
    fork: bool = False,
    verbosity: int = 0,
) -> None:
    """`processes` workers, each its own process (`work`), a worker that dies replaced (a match
    that crashes its worker is replayed elsewhere, but the pool must not shrink). Ctrl-C, or
    SIGTERM (which the `arena` command turns into a KeyboardInterrupt), stops them all, and this
    returns."""
    configure(verbosity)
    settings = (redis_url, name, fork, verbosity)
    children = [_worker_process(*settings, f"{n}") for n in range(processes)]
    renamed = itertools.count(1)  # a new name: the dead one's stays registered until its TTL ends

    def replacement(n: int) -> Process:
        return _worker_process(*settings, f"{n}.{next(renamed)}")

    try:
        with signals_deferred():  # an interrupt mid-start would leave a child unknown
            for child in children:
                child.start()
        while running := replace_the_dead(children, replacement):
            wait([child.sentinel for child in running])
    except KeyboardInterrupt:
        log.info(
            "stopping %d workers: the jobs in hand finish first (at most %g s)",
            len(children),
            STOP_GRACE_S,
        )
    finally:
        _stop_workers([child for child in children if child.pid is not None])


def replace_the_dead(
    children: list[Process], replacement: Callable[[int], Process]
) -> list[Process]:
    """Start `replacement(n)` in place of each child n that died (exit code 0 is a stop as
    asked), and return the children running. One pass decides both: a child dying after its
    check is still returned, so its exit wakes the wait on it. Were the running ones listed
    apart, a death in between would leave that child out of every later wait, never replaced."""
    running = []
    for n, child in enumerate(children):
        if child.is_alive():
            running.append(child)
        elif child.exitcode != 0:
            log.warning("worker %s died (exit code %s): starting another", n, child.exitcode)
            time.sleep(RESTART_PAUSE_S)  # a worker that cannot start must not spin
            with signals_deferred():
                children[n] = replacement(n)
                children[n].start()
            running.append(children[n])
    return running


def _worker_process(
    redis_url: str, name: str | None, fork: bool, verbosity: int, slot: str
) -> Process:
    return Process(
        target=_work_in_child,
        args=(redis_url, f"{name}-{slot}" if name else None, fork, verbosity),
        name=f"arena-worker-{slot}",
    )


def _work_in_child(redis_url: str, name: str | None, fork: bool, verbosity: int) -> None:
    # A forked child inherits the parent's handlers, here the ones holding signals back while
    # it starts children: a stop signal must stop it until RQ installs its own.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    work(redis_url, False, name, fork, verbosity, in_pool=True)


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
