"""How long a SIGKILLed worker's match waits before it is played again, in a busy pool.

    arena bench recovery [--workers 3] [--kills 5] [--redis-url URL]

A round robin fills the queue; each time, a worker is killed (with any work-horse, as when its
machine dies) in the middle of a match and a new one takes its place, as a Kubernetes Deployment
would. Recovery is the time from the kill to the match's next attempt starting.
"""

from __future__ import annotations

import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import redis
from rq.job import Job, JobStatus
from rq.registry import StartedJobRegistry
from rq.serializers import JSONSerializer

from arena.services import event_liveness, event_runs, events
from arena.store.job_queue import QUEUE_NAME, arena_queue, job_place
from arena.store.results import match_id
from arena.store.server import connect, given_or_found
from arena.store.tournaments import TournamentStore
from arena.tournament.definition import TimeControl
from workers.processes import kill_tree, spawn_python, stop_all

FIELD = ["greedy", *(f"search#{n}" for n in range(30, 130, 10))]  # 11 entrants, 55 matches


@dataclass(frozen=True, slots=True)
class Kill:
    found_s: float  # from the kill until the job was found abandoned (and queued again)
    replayed_s: float  # from the kill until the match's next attempt started
    queued: int  # matches waiting in the queue at the kill


def run(redis_url: str | None, workers: int, kills: int, report: Callable[[str], object]) -> None:
    """`arena bench recovery`: `kills` kills in a pool of `workers`, on the Redis at `redis_url`
    (or one found or started), each reported, then the medians."""
    with given_or_found(redis_url) as url, tempfile.TemporaryDirectory() as folder:
        done, match_s = measure(url, workers, kills, Path(folder))
    for n, kill in enumerate(done, 1):
        report(
            f"kill {n}: found abandoned after {kill.found_s:.1f} s, replayed after "
            f"{kill.replayed_s:.1f} s ({kill.queued} matches queued at the kill)"
        )
    found, replayed = [k.found_s for k in done], [k.replayed_s for k in done]
    report(
        f"recovery from SIGKILL with {workers} workers and a full queue: replayed after "
        f"median {statistics.median(replayed):.1f} s, max {max(replayed):.1f} s; found abandoned "
        f"after median {statistics.median(found):.1f} s, max {max(found):.1f} s; the rest is "
        f"waiting for a worker to finish its match ({match_s:.1f} s a match on average here)"
    )


def measure(url: str, workers: int, kills: int, logs: Path) -> tuple[list[Kill], float]:
    """Each kill, and the mean wall time of the matches played meanwhile."""
    client = connect(url)
    name = f"recovery-{int(time.time())}"
    tc = TimeControl(move_ms=5000, bank_ms=5000)
    events.create(client, name, "round-robin", FIELD, None, "caper", "paris", 4, True, tc, 1)
    event_runs.start(client, name)
    pool = {f"w{n}": _worker(url, f"w{n}", logs) for n in range(workers)}
    try:
        done = [_kill_one(client, name, pool, url, logs, f"r{n}") for n in range(kills)]
    finally:
        stop_all(list(pool.values()), timeout_s=5)
        event_runs.stop(client, name, "the benchmark is over")
        queue = arena_queue(client)
        for job_id in queue.job_ids:
            if job_id.startswith(f"match_{name}_"):
                queue.remove(job_id)
    finished = queue.finished_job_registry.get_job_ids()
    jobs = Job.fetch_many(finished, connection=client, serializer=JSONSerializer)
    spans = [
        (job.ended_at - job.started_at).total_seconds()
        for job in jobs
        if job is not None
        and job.started_at
        and job.ended_at
        and job.id.startswith(f"match_{name}_")
    ]
    return done, statistics.mean(spans) if spans else float("nan")


def _kill_one(
    client: redis.Redis,
    name: str,
    pool: dict[str, subprocess.Popen[bytes]],
    url: str,
    logs: Path,
    replacement: str,
) -> Kill:
    """Kill a worker in the middle of a match, start its replacement, time the recovery."""
    store = TournamentStore(client)
    job = _a_match_in_play(client, set(pool))
    name, round_number, board, count = job_place(job)
    in_play = event_liveness.first_unrecorded(
        client, name, round_number, range(board, board + count)
    )
    the_id = match_id(name, round_number, in_play)
    attempts = store.attempts(name)[the_id]
    queued = arena_queue(client).count
    killed_at = time.monotonic()
    kill_tree(pool.pop(str(job.worker_name)))
    pool[replacement] = _worker(url, replacement, logs)  # as a Deployment would
    found: float | None = None
    while store.attempts(name)[the_id] == attempts:
        if time.monotonic() - killed_at > 600:
            raise SystemExit(f"match {the_id} was not replayed within 10 minutes")
        if found is None and job.get_status() is not JobStatus.STARTED:
            found = time.monotonic() - killed_at
        time.sleep(0.05)
    replayed = time.monotonic() - killed_at
    return Kill(replayed if found is None else found, replayed, queued)


def _worker(url: str, name: str, logs: Path) -> subprocess.Popen[bytes]:
    return spawn_python(["-m", "arena", "worker", "--redis-url", url, "--name", name], logs / name)


def _a_match_in_play(client: redis.Redis, names: set[str]) -> Job:
    """A match one of `names` has been playing for a second, with others queued behind it."""
    registry = StartedJobRegistry(QUEUE_NAME, connection=client, serializer=JSONSerializer)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for job_id in registry.get_job_ids(cleanup=False):
            job = Job.fetch(job_id, connection=client, serializer=JSONSerializer)
            started = job.started_at.timestamp() if job.started_at else time.time()
            if job.worker_name in names and time.time() - started > 1:
                return job
        time.sleep(0.05)
    raise SystemExit("no match in play for two minutes: is the queue empty?")
