"""Shared by the rating store tests: a ladder, its players, and a snapshot of all its keys."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable

import redis

from arena.ratings import Glicko2Config
from arena.ratings.ladder import LadderParams
from arena.store.bots import BotRegistry
from arena.store.ladders import LadderDefinition, LadderStore, ladder_ref

BUILTINS = ("random", "greedy", "search#3", "search@5")


def make_ladder(
    client: redis.Redis, name: str = "main", k: float = 32.0, tau: float = 0.5
) -> LadderDefinition:
    definition = LadderDefinition(ladder_ref(name), LadderParams(k, Glicko2Config(tau=tau)))
    LadderStore(client).create(definition)
    return definition


def register(client: redis.Redis, *names: str) -> None:
    registry = BotRegistry(client)
    for name in names:
        registry.register(name)


def snapshot(client: redis.Redis, definition: LadderDefinition) -> dict[bytes, bytes]:
    """Every key of the ladder, serialised by Redis itself (DUMP): any change shows."""
    pattern = f"arena:ladder:{definition.ref.slug}*"
    return {key: client.dump(key) or b"" for key in sorted(client.scan_iter(match=pattern))}


def run_writers(url: str, slug: str, writer: Callable[[str, str, int], None], count: int) -> None:
    """`writer(url, slug, n)` in `count` forked processes at once; each must exit cleanly."""
    context = multiprocessing.get_context("fork")
    processes = [context.Process(target=writer, args=(url, slug, n)) for n in range(count)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=120)
        assert process.exitcode == 0
