"""The worker entry point: one worker, or a pool of them, on the arena queue. It chooses the
worker class (`workers.inprocess` or, forking per job, `workers.arena_worker`), the one module
that sees both."""

from __future__ import annotations

import itertools
import signal
import time
from collections.abc import Callable
from multiprocessing import Process
from multiprocessing.connection import wait

from rq.serializers import JSONSerializer

import workers.jobs  # noqa: F401 - imported once here, so every forked job starts warm
from arena.metrics.recorder import record_job_failure
from arena.store.job_queue import QUEUE_NAME
from arena.store.outages import connect_patiently
from arena.store.server import connect
from workers.arena_worker import HEARTBEAT_S, MAINTENANCE_S, WORKER_TTL_S, ArenaWorker
from workers.inprocess import InProcessWorker
from workers.logs import configure, events
from workers.processes import signals_deferred

STOP_GRACE_S = 30.0  # how long a stopping pool lets the matches in hand finish
RESTART_PAUSE_S = 1.0  # before a dead worker of a pool is replaced

log = events


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
