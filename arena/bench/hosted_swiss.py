"""`arena bench hosted-swiss`: a Swiss of hosted random bots played by a pool of workers, each
match starting both programs in the sandbox, next to the same Swiss of built-in random bots on
the same pool: games per second and the CPU every game cost (workers, their programs, Redis)."""

from __future__ import annotations

import contextlib
import secrets
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import redis

from arena.bench.hosted import RANDOM_PROGRAM
from arena.bench.pipeline import (
    CONFIG,
    cpu_seconds,
    local_redis_pid,
    wait_for_workers,
    wait_until_over,
)
from arena.services import bots, event_runs, hosted
from arena.store.bots import BotRegistryError
from arena.store.server import connect
from arena.store.tournaments import Status, TournamentStore
from arena.tournament.definition import Format, TournamentDefinition
from workers.processes import worker_pool

MANIFEST = 'command = "python3 bot.py"\nruntime = "python"\n'


@dataclass(frozen=True, slots=True)
class SwissFigures:
    label: str
    entrants: int
    matches: int
    games: int
    seconds: float  # wall time from the start to the last result recorded
    cpu_seconds: float  # the workers, what they ran (the programs) and a local Redis

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds


def run(
    url: str, entrants: int, workers: int, rounds: int, games_per_match: int
) -> list[SwissFigures]:
    """The same Swiss (field size, rounds, seed) of hosted random bots, then of built-in ones,
    on one pool of `workers` worker processes. The hosted bots are revoked afterwards."""
    client = connect(url)
    prefix = f"bench-{secrets.token_hex(3)}"
    names = [f"{prefix}-{n}" for n in range(1, entrants + 1)]
    fields = {
        "hosted random": names,
        "built-in random": [f"random/{n}" for n in range(1, entrants + 1)],
    }
    try:
        with (
            tempfile.TemporaryDirectory(prefix="arena-bench-") as logs,
            worker_pool(url, workers, Path(logs), prefix) as pool,
        ):
            _submit(client, names, Path(logs) / "bot")
            wait_for_workers(client, workers)
            pids = [process.pid for process in pool] + local_redis_pid(client)
            return [
                _swiss(client, f"{prefix}-{n}", label, field, rounds, games_per_match, pids)
                for n, (label, field) in enumerate(fields.items())
            ]
    finally:
        for name in names:
            with contextlib.suppress(BotRegistryError):  # one never registered
                bots.revoke(client, name)


def _submit(client: redis.Redis, names: list[str], folder: Path) -> None:
    """Register each bot and submit the random program as its version."""
    folder.mkdir()
    (folder / "arena-bot.toml").write_text(MANIFEST)
    (folder / "bot.py").write_text(RANDOM_PROGRAM)
    for name in names:
        _, token = bots.register(client, name)
        hosted.submit(client, name, folder, token, None)


def _swiss(
    client: redis.Redis,
    name: str,
    label: str,
    field: list[str],
    rounds: int,
    games_per_match: int,
    pids: list[int],
) -> SwissFigures:
    definition = TournamentDefinition(
        name, Format.SWISS, tuple(field), config=dict(CONFIG), rounds=rounds,
        games_per_match=games_per_match,
    )  # fmt: skip
    TournamentStore(client).create(definition)
    cpu, started = cpu_seconds(pids), time.perf_counter()
    event_runs.start(client, name)
    status = wait_until_over(client, name)
    seconds, cpu = time.perf_counter() - started, cpu_seconds(pids) - cpu
    if status is not Status.FINISHED:
        raise RuntimeError(f"the benchmark Swiss {name} ended {status.value}")
    results = TournamentStore(client).results(name).values()
    games = sum(len(match.game_ids) for match in results)
    return SwissFigures(label, len(field), len(results), games, seconds, cpu)


def report(figures: list[SwissFigures], workers: int, say: Callable[[str], object]) -> None:
    for row in figures:
        say(
            f"{row.label}: {row.entrants}-entrant Swiss on {workers} workers, {row.matches} "
            f"matches, {row.games} games in {row.seconds:.1f} s: "
            f"{row.games_per_second:.1f} games/s, {row.cpu_seconds / row.games * 1000:.1f} ms "
            "of CPU a game"
        )
