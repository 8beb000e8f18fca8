"""`RatingStore.apply_many`: batches of results write the bytes one-by-one updates write,
exactly once per result id, and `arena ladder rebuild` reproduces them."""

from __future__ import annotations

import dataclasses
import gc
import random
from typing import Any

import pytest
import redis

from arena.ratings import InvalidResultError
from arena.store import keys
from arena.store.ladders import LadderDefinition, LadderStore, UnknownBotError, ladder_ref
from arena.store.ratings import AnyResult, RatedResult, RatingStore, TableResult
from arena.store.ratings.batch import check_sides, own_period, rate_fresh
from arena.store.ratings.pipeline import PipelinedWriter
from arena.store.ratings.rebuild import rebuild
from tests.store.ratings_helpers import BUILTINS, snapshot

Config = dict[str, str | int]
PAIRS: Config = {"city": "paris"}
SNITCH: Config = {"city": "paris", "players": 3}
TEAMS: Config = {"city": "paris", "players": 4}


def make(client: redis.Redis, name: str, config: Config) -> LadderDefinition:
    definition = LadderDefinition(ladder_ref(name), config=config)
    LadderStore(client).create(definition)
    return LadderStore(client).get(definition.ref)


def results_for(config: Config, count: int, seed: int = 3) -> list[AnyResult]:
    """`count` random results of the ladder's shape (pairs with a duplicate match's 0.75,
    tables of three with frequent ties, two teams of two)."""
    rng = random.Random(seed)
    made: list[AnyResult] = []
    for index in range(count):
        if config.get("players", 2) == 2:
            a, b = rng.sample(BUILTINS, 2)
            made.append(RatedResult(f"r{index}", a, b, rng.choice((0, 0.5, 0.75, 1)), index))
        else:
            seats = rng.sample(BUILTINS, 3 if config["players"] == 3 else 4)
            sides = [[name] for name in seats] if len(seats) == 3 else [seats[:2], seats[2:]]
            scored = tuple((tuple(side), float(rng.randrange(2))) for side in sides)
            made.append(TableResult(f"t{index}", scored, index))
    return made


def by_suffix(client: redis.Redis, ladder: LadderDefinition) -> dict[str, bytes]:
    """Every key of the ladder but its definition, named without the ladder's slug."""
    prefix = f"arena:ladder:{ladder.ref.slug}"
    return {
        key.decode().removeprefix(prefix): dump
        for key, dump in snapshot(client, ladder).items()
        if key.decode() != prefix
    }


@pytest.mark.parametrize("config", [PAIRS, SNITCH, TEAMS], ids=["pairs", "tables", "teams"])
def test_batches_write_the_bytes_of_one_by_one_updates_and_of_a_rebuild(
    redis_client: redis.Redis, config: Config
) -> None:
    one, many = make(redis_client, "one", config), make(redis_client, "many", config)
    store = RatingStore(redis_client)
    results = results_for(config, 60)
    for result in results:
        store.apply(one, result)
    # A batch size that splits the results unevenly; a repeated result is skipped.
    applied = store.apply_many(many, [*results[:30], results[3], *results[30:]], batch=7)
    assert [r.result_id for b in applied for r in b.rated] == [r.result_id for r in results]
    assert [skip for b in applied for skip in b.skipped] == [results[3].result_id]
    live = by_suffix(redis_client, one)
    assert len(live) > 10 and by_suffix(redis_client, many) == live  # every key's DUMP
    report = rebuild(redis_client, many, write=False)
    assert report.identical and report.results == 60


def test_a_result_submitted_again_counts_once(redis_client: redis.Redis) -> None:
    ladder = make(redis_client, "pairs", PAIRS)
    store = RatingStore(redis_client)
    results = results_for(PAIRS, 20)
    store.apply(ladder, results[0])  # rated one at a time first: a batch must skip it
    store.apply_many(ladder, results)
    live = snapshot(redis_client, ladder)
    again = store.apply_many(ladder, reversed(results), batch=6)
    assert [b.rated for b in again] == [()] * 4
    assert sorted(s for b in again for s in b.skipped) == sorted(r.result_id for r in results)
    assert store.apply(ladder, results[5]) is None
    assert snapshot(redis_client, ladder) == live
    assert [r.result_id for r in store.results(ladder)] == [r.result_id for r in results]
    # One id twice in a batch, with different contents (a retried job that replayed
    # differently): the first is rated, the second skipped.
    first = RatedResult("twice", "random", "greedy", 1.0, 1.0)
    (applied,) = store.apply_many(ladder, [first, RatedResult("twice", "greedy", "random", 1.0, 2)])
    assert (
        applied.rated[0].to_json()
        == RatedResult("twice", "random", "greedy", 1.0, 1.0, 1, "twice").to_json()
    )
    assert applied.skipped == ("twice",)
    assert store.history(ladder, "random")[-1]["score"] == 1.0


def test_a_writer_reads_again_after_another_update(redis_client: redis.Redis) -> None:
    # The batch writer keeps the standings it wrote; one result rated by someone else in
    # between must be seen, or the next batch would rate from stale values.
    ladder = make(redis_client, "pairs", PAIRS)
    writer, other = RatingStore(redis_client), RatingStore(redis_client)
    results = results_for(PAIRS, 30)
    writer.apply_many(ladder, results[:10])
    other.apply(ladder, results[10])
    writer.apply_many(ladder, results[11:20])
    other.apply_many(ladder, results[20:25])
    writer.apply_many(ladder, results[25:])
    assert len(store_results := writer.results(ladder)) == 30
    assert [r.result_id for r in store_results] == [r.result_id for r in results]
    assert rebuild(redis_client, ladder, write=False).identical


def test_a_batch_with_a_bad_result_writes_nothing_of_it(redis_client: redis.Redis) -> None:
    pairs, snitch = make(redis_client, "pairs", PAIRS), make(redis_client, "snitch", SNITCH)
    store = RatingStore(redis_client)
    results = results_for(PAIRS, 6)
    before = snapshot(redis_client, pairs)
    ghost = RatedResult("g", "random", "ghost", 1.0, 0.0)
    with pytest.raises(UnknownBotError, match="unknown bot 'ghost'"):
        store.apply_many(pairs, [*results, ghost])
    assert snapshot(redis_client, pairs) == before
    with pytest.raises(InvalidResultError, match=r"has 2 sides, but .* \(3 players\) have 3"):
        store.apply_many(snitch, results)
    with pytest.raises(ValueError, match="at least one result"):
        store.apply_many(pairs, results, batch=0)
    assert store.apply_many(pairs, []) == []
    assert not redis_client.exists(keys.ladder_log(pairs.ref.slug))


def test_a_batch_rated_ahead_is_rated_again_if_someone_else_went_first(
    redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    # While a batch commits, the next is rated ahead from what the first will leave. Another
    # writer rating in between makes that wrong: the commit must notice and rate it again.
    ladder = make(redis_client, "pairs", PAIRS)
    results = results_for(PAIRS, 50)
    intruders = iter(results[40:43])
    planned = PipelinedWriter._plan

    def plan_then_intrude(writer: PipelinedWriter, *args: Any) -> Any:
        made = planned(writer, *args)
        intruder = next(intruders, None)
        if intruder is not None:  # another process's result lands before the commit
            RatingStore(redis_client).apply(ladder, intruder)
        return made

    monkeypatch.setattr(PipelinedWriter, "_plan", plan_then_intrude)
    applied = RatingStore(redis_client).apply_many(ladder, results, batch=4)
    rated = [r.result_id for b in applied for r in b.rated]
    assert sorted(rated) == sorted(r.result_id for r in results if r not in results[40:43])
    logged = [r.result_id for r in RatingStore(redis_client).results(ladder)]
    assert sorted(logged) == sorted(r.result_id for r in results)  # each once
    assert rebuild(redis_client, ladder, write=False).identical


def test_odd_ids_reach_redis_byte_for_byte(redis_client: redis.Redis) -> None:
    # The batch's writes travel as one JSON text that the script decodes (cjson): quotes,
    # backslashes, control characters, tabs, newlines and non-ASCII must come out unchanged.
    one, many = make(redis_client, "one", PAIRS), make(redis_client, "many", PAIRS)
    store = RatingStore(redis_client)
    odd = ['q"uote', "back\\slash", "tab\tnew\nline", "bell\x07", "é ünï 😀", "\u2028", "1e5"]
    results = [
        RatedResult(name, "random", "greedy", 0.5 * (i % 3), float(i)) for i, name in enumerate(odd)
    ]
    for result in results:
        store.apply(one, result)
    store.apply_many(many, results, batch=4)
    assert by_suffix(redis_client, many) == by_suffix(redis_client, one)
    assert [r.result_id for r in store.results(many)] == odd
    assert rebuild(redis_client, many, write=False).identical


def test_a_batch_script_writes_nothing_once_its_assumptions_fail(redis_client: redis.Redis) -> None:
    # The pipelined commit sends the script without WATCH: the script itself must refuse a
    # batch rated for another log length, or holding an id rated meanwhile.
    ladder = make(redis_client, "pairs", PAIRS)
    results = results_for(PAIRS, 10)
    outcomes = check_sides(ladder, results)
    _, _, at_one = rate_fresh(ladder, outcomes, results[5:], 1, {})
    _, _, first = rate_fresh(ladder, outcomes, results[:5], 0, {})
    _, _, again = rate_fresh(ladder, outcomes, results[4:6], 5, {})
    assert redis_client.execute_command(*at_one) == 0  # type: ignore[no-untyped-call]
    assert not redis_client.exists(keys.ladder_log(ladder.ref.slug))
    assert redis_client.execute_command(*first) == 1  # type: ignore[no-untyped-call]
    written = snapshot(redis_client, ladder)
    # The right length, but results[4] is rated.
    assert redis_client.execute_command(*again) == 0  # type: ignore[no-untyped-call]
    assert snapshot(redis_client, ladder) == written


@pytest.mark.parametrize("config", [PAIRS, SNITCH, TEAMS], ids=["pairs", "tables", "teams"])
def test_a_result_put_in_its_own_period_is_what_replace_makes(config: Config) -> None:
    for result in results_for(config, 30):
        ours = own_period(result)
        assert ours == dataclasses.replace(result, period=result.result_id) != result
        assert ours.to_json() == dataclasses.replace(result, period=result.result_id).to_json()


def test_the_cyclic_collector_rests_while_batches_are_rated_and_comes_back_as_it_was(
    redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    ladder = make(redis_client, "pairs", PAIRS)
    store = RatingStore(redis_client)
    seen: list[bool] = []
    planned = PipelinedWriter._plan

    def plan_and_look(writer: PipelinedWriter, *args: Any) -> Any:
        seen.append(gc.isenabled())
        return planned(writer, *args)

    monkeypatch.setattr(PipelinedWriter, "_plan", plan_and_look)
    results = results_for(PAIRS, 12)
    assert gc.isenabled()
    store.apply_many(ladder, results[:6], batch=2)
    assert seen == [False, False, False] and gc.isenabled()
    with pytest.raises(UnknownBotError):  # an error on the way: the collector is back too
        store.apply_many(ladder, [*results[6:], RatedResult("g", "random", "ghost", 1.0, 0.0)])
    assert gc.isenabled()
    gc.disable()  # a caller that turned it off keeps it off
    try:
        store.apply_many(ladder, results[6:], batch=3)
        assert not gc.isenabled()
    finally:
        gc.enable()
    assert len(store.results(ladder)) == 12
