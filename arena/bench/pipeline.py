"""`arena bench tournament`, the pipeline part: games per second through the whole pipeline
(Redis, RQ jobs, worker processes, the referee, stored records and results) next to the bare
engine on as many cores, at several match lengths in one run, on one pool of workers.

On a shared machine the wall-clock ratio also measures the other load (the engine is timed in
CPU seconds, the pipeline in wall seconds), so the CPU every game cost in the workers and the
Redis server is measured too: games per CPU second over the engine's, which other load barely
moves.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import redis
from rq import Worker

from arena.bench.engine import engine_throughput
from arena.bots import make_bot
from arena.games import get_game
from arena.play.local import play_game
from arena.services import event_runs
from arena.store.job_queue import QUEUE_NAME
from arena.store.server import connect
from arena.store.tournaments import Status, TournamentStore
from arena.tournament.definition import Format, TournamentDefinition
from workers.processes import worker_pool

READY_TIMEOUT_S = 60
CONFIG: dict[str, str | int] = {"city": "paris"}


@dataclass(frozen=True, slots=True)
class PipelineFigures:
    workers: int
    entrants: int
    games_per_match: int
    matches: int
    games: int
    seconds: float  # wall time from the first job enqueued to the last result recorded
    cpu_seconds: float | None  # CPU of the workers and (if local) Redis over that time
    engine_games_per_second: float  # one core, random vs random, measured in the same run
    referee_games_per_second: float  # one core, the same games through the referee, no Redis

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def ratio(self) -> float:
        """Pipeline throughput over what W cores of bare engine would do."""
        return self.games_per_second / (self.engine_games_per_second * self.workers)

    @property
    def referee_ratio(self) -> float:
        """Pipeline throughput over W cores of in-process refereeing: what Redis, RQ, worker
        processes and stored records cost, apart from refereeing itself."""
        return self.games_per_second / (self.referee_games_per_second * self.workers)

    @property
    def cpu_ratio(self) -> float | None:
        """Games per CPU second spent anywhere in the pipeline, over the bare engine's."""
        if not self.cpu_seconds:
            return None
        return self.games / self.cpu_seconds / self.engine_games_per_second


def pipeline_runs(
    url: str,
    workers: int,
    games_per_match: Sequence[int],
    entrants: int,
    min_games: int,
    engine_seconds: float,
) -> list[PipelineFigures]:
    """For each match length, a double round robin of random bots (at least `entrants`, more
    until the tournament has `min_games` games) played by one pool of `workers` processes."""
    client = connect(url)
    engine = engine_throughput("caper", CONFIG, engine_seconds).games_per_second
    refereed = referee_throughput(engine_seconds)
    prefix = f"bench-{secrets.token_hex(3)}"
    with (
        tempfile.TemporaryDirectory(prefix="arena-bench-") as logs,
        worker_pool(url, workers, Path(logs), prefix) as pool,
    ):
        wait_for_workers(client, workers)
        pids = [process.pid for process in pool] + local_redis_pid(client)
        timed = [
            _run(client, f"{prefix}-{games}", field_size(entrants, games, min_games), games, pids)
            for games in games_per_match
        ]
    return [PipelineFigures(workers, *run, engine, refereed) for run in timed]


def _run(
    client: redis.Redis, name: str, entrants: int, games: int, pids: list[int]
) -> tuple[int, int, int, int, float, float | None]:
    """One tournament on the pool: (entrants, games a match, matches, games, wall, CPU)."""
    field = tuple(f"random/{n}" for n in range(1, entrants + 1))
    definition = TournamentDefinition(
        name, Format.DOUBLE_ROUND_ROBIN, field, config=dict(CONFIG), games_per_match=games
    )
    TournamentStore(client).create(definition)
    cpu, started = cpu_seconds(pids), time.perf_counter()
    event_runs.start(client, name)
    status = wait_until_over(client, name)
    seconds, cpu = time.perf_counter() - started, cpu_seconds(pids) - cpu
    if status is not Status.FINISHED:
        raise RuntimeError(f"the benchmark tournament {name} ended {status.value}")
    matches = len(TournamentStore(client).results(name))
    return entrants, games, matches, matches * games, seconds, cpu or None


def field_size(entrants: int, games_per_match: int, min_games: int) -> int:
    """The smallest field of at least `entrants` whose double round robin plays `min_games`."""
    field = entrants
    while field * (field - 1) * games_per_match < min_games:
        field += 1
    return field


def referee_throughput(seconds: float) -> float:
    """Random-vs-random games a second on this core through the referee (observations, clocks,
    records), without Redis or workers."""
    game, bots = get_game("caper"), (make_bot("random"), make_bot("random"))
    games, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        play_game(game, CONFIG, games, bots)
        games += 1
    return games / (time.process_time() - start)


def cpu_seconds(pids: Iterable[int]) -> float:
    """User and system CPU of each process and its reaped children (RQ's work-horses), from
    /proc; a process gone or unreadable counts nothing."""
    ticks = 0
    for pid in pids:
        with contextlib.suppress(OSError, ValueError):
            # fields 14-17 (utime, stime, cutime, cstime); the name (field 2) may hold spaces
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
            ticks += sum(int(field) for field in fields[11:15])
    return ticks / os.sysconf("SC_CLK_TCK")


def local_redis_pid(client: redis.Redis) -> list[int]:
    """The Redis server's pid if it runs on this machine (its CPU is part of every match)."""
    pid = int(client.info("server").get("process_id", 0))
    with contextlib.suppress(OSError):
        if "redis" in Path(f"/proc/{pid}/comm").read_text():
            return [pid]
    return []


def wait_for_workers(client: redis.Redis, count: int) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while len([w for w in Worker.all(connection=client) if QUEUE_NAME in w.queue_names()]) < count:
        if time.monotonic() > deadline:
            raise RuntimeError(f"{count} workers did not start within {READY_TIMEOUT_S} s")
        time.sleep(0.05)


def wait_until_over(client: redis.Redis, name: str) -> Status:
    store = TournamentStore(client)
    while (status := store.status(name)) in (Status.CREATED, Status.RUNNING):
        time.sleep(0.01)
    return status
