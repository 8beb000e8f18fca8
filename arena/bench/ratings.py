"""`arena bench ratings`: rated updates per second one result a transaction (`RatingStore.apply`,
as the workers rate a match) and in batches by one writer (`RatingStore.apply_many`), for
two-bot results (Elo, Glicko-2 and Weng-Lin) and 3-player tables (Weng-Lin); whether
`arena ladder rebuild` reproduces the batched ladders; and the time of a /metrics scrape with
many rated bots in Redis.

It runs on a private embedded Redis unless given a URL, and then only on an empty database: a
benchmark must never write its thousands of bots into a real arena.
"""

from __future__ import annotations

import multiprocessing
import random
import statistics
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import redis
from rich.console import Console

from arena.compiled.loader import RATINGS, compiled_modules
from arena.metrics.collector import DEFAULT_TOP_N
from arena.metrics.recorder import record_game
from arena.metrics.server import start_metrics_server
from arena.store.bots import BotRegistry
from arena.store.ladders import LadderDefinition, LadderStore, ladder_ref
from arena.store.ratings import AnyResult, RatedResult, RatingStore, TableResult
from arena.store.ratings.rebuild import rebuild
from arena.store.server import connect, embedded_redis

LADDER = "bench"
TABLES = "bench-tables"  # a 3-player ladder: tables of the Snitch game
BATCHED = "bench-batched"  # the same kinds of results, rated in batches by one writer
BATCHED_TABLES = "bench-batched-tables"


@contextmanager
def bench_redis(url: str | None) -> Iterator[str]:
    if url is None:
        with embedded_redis() as started:
            yield started
        return
    if connect(url).dbsize():
        raise ValueError(f"the benchmark writes thousands of keys: {url} must be an empty database")
    yield url


def setup(client: redis.Redis, bots: int) -> tuple[LadderDefinition, list[str]]:
    """A ladder and `bots` registered bots (not yet rated)."""
    definition = LadderDefinition(ladder_ref(LADDER), bots=())
    LadderStore(client).create(definition)
    registry = BotRegistry(client)
    names = [f"bench-{i:05d}" for i in range(bots)]
    for name in names:
        registry.register(name)
    return definition, names


def results_for(names: Sequence[str], count: int, seed: int = 1) -> list[RatedResult]:
    """Every bot once (disjoint pairs), then random pairs, up to `count` results."""
    rng = random.Random(seed)
    pairs = [(names[i], names[i + 1]) for i in range(0, len(names) - 1, 2)]
    while len(pairs) < count:
        a, b = rng.sample(names, 2)
        pairs.append((a, b))
    return [
        RatedResult(f"bench.{i}", a, b, rng.choice((0.0, 0.5, 1.0)), float(i))
        for i, (a, b) in enumerate(pairs)
    ]


def tables_for(names: Sequence[str], count: int, seed: int = 1) -> list[TableResult]:
    """`count` tables of three random bots, scored 0-3 each (ties are frequent)."""
    rng = random.Random(seed)
    return [
        TableResult(
            f"bench.t{i}",
            tuple(((name,), float(rng.randrange(4))) for name in rng.sample(names, 3)),
            i,
        )
        for i in range(count)
    ]


def _apply_all(url: str, definition: LadderDefinition, results: Sequence[AnyResult]) -> None:
    store = RatingStore(connect(url))
    for result in results:
        store.apply(definition, result)


def time_updates(
    url: str, definition: LadderDefinition, results: Sequence[AnyResult], processes: int
) -> float:
    """Seconds to apply `results`, split across `processes` processes."""
    started = time.perf_counter()
    if processes <= 1:
        _apply_all(url, definition, results)
        return time.perf_counter() - started
    context = multiprocessing.get_context("fork")
    workers = [
        context.Process(target=_apply_all, args=(url, definition, results[i::processes]))
        for i in range(processes)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return time.perf_counter() - started


def time_scrapes(client: redis.Redis, top_n: int, scrapes: int) -> tuple[list[float], int]:
    """Seconds per HTTP scrape of /metrics, and the number of samples in the last one."""
    server = start_metrics_server(client, "127.0.0.1", 0, top_n)
    seconds, lines = [], 0
    try:
        for _ in range(scrapes):
            started = time.perf_counter()
            with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/metrics") as reply:
                body = reply.read()
            seconds.append(time.perf_counter() - started)
            lines = sum(1 for line in body.splitlines() if line and not line.startswith(b"#"))
    finally:
        server.stop()
    return seconds, lines


def _some_game_metrics(client: redis.Redis) -> None:
    rng = random.Random(2)
    for _ in range(200):
        decisions = [("builtin", rng.expovariate(1000.0)) for _ in range(40)]
        record_game(client, "caper", rng.choice((0, 1)), "normal", rng.random(), decisions, 0)


def run_bench(
    console: Console,
    url: str | None,
    bots: int,
    updates: int,
    processes: int,
    scrapes: int,
    batched: int = 0,
) -> None:
    if bots < 2 or updates < 1 or processes < 1 or scrapes < 1 or batched < 0:
        raise ValueError(
            "--bots must be at least 2; --updates, --processes, --scrapes at least 1; "
            "--batched not negative"
        )
    with bench_redis(url) as location:
        client = connect(location)
        console.print(f"Registering {bots:,} bots...")
        definition, names = setup(client, bots)
        results = results_for(names, max(updates, bots // 2))
        seconds = time_updates(location, definition, results, processes)
        console.print(
            f"Rated updates: {len(results):,} in {seconds:.2f} s = "
            f"{len(results) / seconds:,.0f} updates/s ({processes} process(es), WATCH/MULTI; "
            "Elo, Glicko-2 and Weng-Lin)"
        )
        _some_game_metrics(client)
        rated = RatingStore(client).player_count(definition)
        for top_n in dict.fromkeys((DEFAULT_TOP_N, bots)):
            times, samples = time_scrapes(client, top_n, scrapes)
            console.print(
                f"/metrics with {rated:,} rated bots, top {top_n:,} exported: "
                f"median {1000 * statistics.median(times):.0f} ms, "
                f"max {1000 * max(times):.0f} ms ({samples:,} samples; target < 250 ms)"
            )
        if bots >= 3:  # after the scrapes: their figures stay those of one ladder
            _bench_tables(console, location, names, max(updates, bots // 3), processes)
        if batched:
            _bench_batched(console, client, names, batched)


def _bench_batched(console: Console, client: redis.Redis, names: Sequence[str], count: int) -> None:
    """`count` results (then as many tables) rated by one process in batches, on fresh ladders
    over the same bots; then a rebuild of each must find every stored byte as it would write it."""
    store = RatingStore(client)
    pairs = LadderDefinition(ladder_ref(BATCHED), bots=())
    runs: list[tuple[str, LadderDefinition, Sequence[AnyResult]]] = [
        ("two-bot results", pairs, results_for(names, count, 3))
    ]
    if len(names) >= 3:
        tables = LadderDefinition(ladder_ref(BATCHED_TABLES), config={"players": 3}, bots=())
        runs.append(("3-player tables", tables, tables_for(names, count, 3)))
    for what, definition, made in runs:
        LadderStore(client).create(definition)
        definition = LadderStore(client).get(definition.ref)
        started, cpu, server = time.perf_counter(), time.process_time(), _server_cpu(client)
        store.apply_many(definition, made)
        seconds = time.perf_counter() - started
        cpu, server = time.process_time() - cpu, _server_cpu(client) - server
        identical = rebuild(client, definition, write=False).identical
        console.print(
            f"Batched {what}: {len(made):,} in {seconds:.2f} s = {len(made) / seconds:,.0f} "
            f"updates/s (1 process, apply_many, {_compiled()}; ladder rebuild identical: "
            f"{'yes' if identical else 'NO'}); CPU a result: {1e6 * cpu / len(made):.0f} us "
            f"here, {1e6 * server / len(made):.0f} us in Redis"
        )


def _compiled() -> str:
    """Whether the rating maths run from the optional compiled build (ARENA_COMPILED_ENGINE)."""
    native = [name for name in compiled_modules() if name in RATINGS]
    return f"compiled: {'yes' if native else 'no'}"


def _server_cpu(client: redis.Redis) -> float:
    """CPU seconds the Redis server has used: on a shared machine, wall time alone says little."""
    info = client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def _bench_tables(
    console: Console, url: str, names: Sequence[str], count: int, processes: int
) -> None:
    tables = LadderDefinition(ladder_ref(TABLES), config={"players": 3}, bots=())
    LadderStore(connect(url)).create(tables)
    results = tables_for(names, count)
    seconds = time_updates(url, tables, results, processes)
    console.print(
        f"Weng-Lin table updates: {len(results):,} 3-player tables in {seconds:.2f} s = "
        f"{len(results) / seconds:,.0f} updates/s ({processes} process(es), WATCH/MULTI)"
    )
