"""Concurrent rating updates from several processes lose nothing, and a rebuild equals live."""

from __future__ import annotations

import random

import pytest
import redis

from arena.store.ladders import LadderStore
from arena.store.ratings import RatedResult, RatingStore
from arena.store.ratings.rebuild import rebuild
from arena.store.server import connect
from tests.store.ratings_helpers import BUILTINS, make_ladder, run_writers

PROCESSES = 4
PER_PROCESS = 40
SHARED = 10  # results every process tries to rate: each must count once


def _rate(url: str, slug: str, worker: int) -> None:
    client = connect(url)
    ladder = LadderStore(client).get_slug(slug)
    store, rng = RatingStore(client), random.Random(worker)
    for index in range(PER_PROCESS):
        a, b = rng.sample(BUILTINS, 2)
        store.apply(ladder, RatedResult(f"w{worker}.{index}", a, b, rng.random(), index))
        if index < SHARED:
            shared = RatedResult(f"shared.{index}", "random", "greedy", 1.0, index)
            store.apply(ladder, shared)
    client.close()


def test_concurrent_updates_lose_nothing_and_rebuild_equals_live(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    ladder = make_ladder(redis_client)
    run_writers(redis_server_url, ladder.ref.slug, _rate, PROCESSES)
    store = RatingStore(redis_client)
    results = store.results(ladder)
    ids = [r.result_id for r in results]
    assert len(ids) == len(set(ids)) == PROCESSES * PER_PROCESS + SHARED
    board = dict(store.leaderboard(ladder))
    assert sum(s.games for s in board.values()) == 2 * len(results)
    assert sum(s.elo for s in board.values()) == pytest.approx(1500 * len(board), abs=1e-9)
    assert sum(s.points for s in board.values()) == pytest.approx(len(results), abs=1e-9)
    report = rebuild(redis_client, ladder, write=False)
    assert report.identical and report.results == len(results)


def _rate_batches(url: str, slug: str, worker: int) -> None:
    """Batches of this worker's own results, each batch also holding shared results that every
    worker submits (some twice in one batch): duplicate submissions from concurrent writers."""
    client = connect(url)
    ladder = LadderStore(client).get_slug(slug)
    store, rng = RatingStore(client), random.Random(worker)
    own = []
    for index in range(PER_PROCESS):
        a, b = rng.sample(BUILTINS, 2)
        own.append(RatedResult(f"w{worker}.{index}", a, b, rng.random(), index))
    shared = [RatedResult(f"shared.{i}", "random", "greedy", 1.0, i) for i in range(SHARED)]
    for start in range(0, PER_PROCESS, 8):
        mixed = [*own[start : start + 8], *rng.sample(shared, 3)]
        store.apply_many(ladder, [*mixed, mixed[-1]], batch=rng.choice((3, 5, 12)))
        if start % 16 == 0:  # one-at-a-time updates race with the batches too
            store.apply(ladder, rng.choice(shared))
    store.apply_many(ladder, shared)
    client.close()


def test_concurrent_batches_count_each_result_once_and_rebuild_equals_live(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    ladder = make_ladder(redis_client)
    run_writers(redis_server_url, ladder.ref.slug, _rate_batches, PROCESSES)
    store = RatingStore(redis_client)
    results = store.results(ladder)
    ids = [r.result_id for r in results]
    assert len(ids) == len(set(ids)) == PROCESSES * PER_PROCESS + SHARED
    board = dict(store.leaderboard(ladder))
    assert sum(s.games for s in board.values()) == 2 * len(results)
    assert sum(s.elo for s in board.values()) == pytest.approx(1500 * len(board), abs=1e-9)
    report = rebuild(redis_client, ladder, write=False)
    assert report.identical and report.results == len(results)
