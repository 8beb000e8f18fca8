"""Filling a ladder from any process (`services.ladder_runs`) against the real Redis: fills
racing never exceed the concurrency or seat a bot twice, the bots of a match whose job ended or
vanished are freed, and a stopped ladder is filled no more."""

from __future__ import annotations

import random
import threading

import redis
from rq.job import Job
from rq.serializers import JSONSerializer

from arena.services import ladder_runs, ladders
from arena.store import keys
from arena.store.job_queue import arena_queue
from arena.store.ladder_runs import LadderRuns
from arena.store.ladders import LadderDefinition, LadderStore, ladder_ref

MANY = tuple(f"search#{depth}" for depth in range(2, 14))  # 12 bots


def _ladder(client: redis.Redis, bots: tuple[str, ...] = MANY) -> LadderDefinition:
    definition = LadderDefinition(ladder_ref("pool"), remote=False, bots=bots)
    LadderStore(client).create(definition)
    return definition


def _seated(client: redis.Redis, slug: str) -> list[str]:
    return [name for match in LadderRuns(client).in_flight(slug) for name in match.players]


def test_fills_racing_never_exceed_the_concurrency_nor_seat_a_bot_twice(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    ladder = _ladder(redis_client)
    ladders.start(redis_client, ladder.ref, concurrency=4)
    slug, runs = ladder.ref.slug, LadderRuns(redis_client)
    queued_total = len(runs.in_flight(slug))
    shuffle = random.Random(7)
    for _ in range(12):
        # Matches end (their jobs free their bots), then two processes fill at once.
        ended = [m.job_id for m in runs.in_flight(slug) if shuffle.random() < 0.5]
        runs.forget(slug, ended)
        barrier = threading.Barrier(3)
        queued: list[int] = []
        racers = [threading.Thread(target=_fill, args=(redis_server_url, ladder, barrier, queued))
                  for _ in range(3)]  # fmt: skip
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join(30)
        seated = _seated(redis_client, slug)
        assert len(runs.in_flight(slug)) == 4, "full again, never more"
        assert len(seated) == len(set(seated)) == 8, "no bot in two matches"
        assert sum(queued) == len(ended), "each freed slot was filled once"
        queued_total += sum(queued)
    assert runs.sequence(slug) == queued_total, "numbered one after another"
    assert arena_queue(redis_client).count == queued_total, "every match queued has its job"


def _fill(
    url: str, ladder: LadderDefinition, barrier: threading.Barrier, queued: list[int]
) -> None:
    """A process of its own filling the ladder at the same moment as the others."""
    client = redis.Redis.from_url(url)
    barrier.wait()
    queued.append(len(ladder_runs.fill(client, ladder.ref)))


def test_the_bots_of_a_match_whose_job_ended_or_vanished_are_freed(
    redis_client: redis.Redis,
) -> None:
    ladder = _ladder(redis_client, ("random", "greedy", "search#4", "search#6"))
    assert ladders.start(redis_client, ladder.ref, concurrency=2) == 2
    slug = ladder.ref.slug
    first, second = LadderRuns(redis_client).in_flight(slug)
    assert ladder_runs.fill(redis_client, ladder.ref) == [], "full: every bot is busy"
    Job.fetch(first.job_id, redis_client, serializer=JSONSerializer).cancel()
    Job.fetch(second.job_id, redis_client, serializer=JSONSerializer).delete()  # as if lost
    refilled = ladder_runs.fill(redis_client, ladder.ref)
    assert [m.number for m in refilled] == [3, 4]
    assert sorted(_seated(redis_client, slug)) == sorted([*first.players, *second.players])
    assert {m.job_id for m in LadderRuns(redis_client).in_flight(slug)} == {
        m.job_id for m in refilled
    }


def test_a_stopped_ladder_is_filled_no_more_and_a_budget_ends_its_filling(
    redis_client: redis.Redis,
) -> None:
    ladder = _ladder(redis_client, ("random", "greedy", "search#4", "search#6"))
    slug, runs = ladder.ref.slug, LadderRuns(redis_client)
    assert ladder_runs.fill(redis_client, ladder.ref) == [], "a created ladder waits for Start"
    ladders.start(redis_client, ladder.ref, concurrency=1)
    ladders.stop(redis_client, ladder.ref)
    runs.forget(slug, [m.job_id for m in runs.in_flight(slug)])
    assert ladder_runs.fill(redis_client, ladder.ref) == []
    ladder_runs.fill_running(redis_client)
    assert runs.sequence(slug) == 1 and runs.in_flight(slug) == []
    assert ladders.resume(redis_client, ladder.ref) == 1
    runs.forget(slug, [m.job_id for m in runs.in_flight(slug)])
    ladders.begin_run(redis_client, ladder.ref, concurrency=2, budget=3)
    assert len(ladder_runs.fill(redis_client, ladder.ref)) == 2
    runs.forget(slug, [m.job_id for m in runs.in_flight(slug)])
    assert len(ladder_runs.fill(redis_client, ladder.ref)) == 1, "one left of the budget"
    runs.forget(slug, [m.job_id for m in runs.in_flight(slug)])
    assert ladder_runs.fill(redis_client, ladder.ref) == []
    assert redis_client.hget(keys.ladder(slug), "budget") == b"0"
