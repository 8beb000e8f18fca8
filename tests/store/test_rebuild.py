"""`arena ladder rebuild`: a replay of the results log reproduces the live ratings bit for bit."""

from __future__ import annotations

import random

import redis

from arena.store import keys
from arena.store.ladders import LadderStore, ladder_ref
from arena.store.ratings import RatedResult, RatingStore
from arena.store.ratings.rebuild import rebuild
from tests.store.ratings_helpers import BUILTINS, make_ladder, register, snapshot


def _play(client: redis.Redis, rounds: int) -> None:
    ladder = make_ladder(client, k=20, tau=0.8)
    register(client, "remote-1")
    players = (*BUILTINS, "remote-1")
    store, rng = RatingStore(client), random.Random(11)
    for index in range(rounds):
        a, b = rng.sample(players, 2)
        store.apply(ladder, RatedResult(f"r{index}", a, b, rng.random(), 1000.0 + index))
        if index % 10 == 0:  # now and then a rating period of several results
            pairs = [rng.sample(players, 2) for _ in range(3)]
            period = [
                RatedResult(f"p{index}.{n}", a, b, rng.random(), 0.5)
                for n, (a, b) in enumerate(pairs)
            ]
            store.apply_period(ladder, period)


def test_rebuild_reproduces_live_values_exactly(redis_client: redis.Redis) -> None:
    _play(redis_client, 80)
    ladder = make_ladder(redis_client, "other")  # another ladder must be left alone
    main = LadderStore(redis_client).get(ladder_ref("main"))
    live = snapshot(redis_client, main)
    other = snapshot(redis_client, ladder)
    check = rebuild(redis_client, main, write=False)
    assert check.identical and check.results == 80 + 8 * 3 and check.players == 5
    written = rebuild(redis_client, main)
    assert written.identical and written.written
    assert snapshot(redis_client, main) == live  # every key, byte for byte
    assert snapshot(redis_client, ladder) == other


def test_rebuild_finds_and_repairs_a_tampered_rating(redis_client: redis.Redis) -> None:
    _play(redis_client, 20)
    main = LadderStore(redis_client).get(ladder_ref("main"))
    live = snapshot(redis_client, main)
    redis_client.hset(keys.ladder_standing(main.ref.slug, "greedy"), "elo", "3000.0")
    redis_client.zadd(keys.ladder_board(main.ref.slug, "elo"), {"intruder": 1.0})
    report = rebuild(redis_client, main, write=False)
    assert "greedy" in report.mismatched and "intruder" in report.mismatched
    assert not rebuild(redis_client, main).identical
    assert snapshot(redis_client, main) == live
    assert rebuild(redis_client, main, write=False).identical


def test_rebuild_of_an_empty_ladder(redis_client: redis.Redis) -> None:
    ladder = make_ladder(redis_client)
    report = rebuild(redis_client, ladder)
    assert (report.results, report.players, report.identical) == (0, 0, True)
