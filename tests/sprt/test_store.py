"""SPRT tests in Redis: each pair counted once, the state decided by the counts it writes."""

from __future__ import annotations

import math
import threading

import pytest
import redis

from arena.store import keys
from arena.store.sprt import SprtDefinition, SprtError, SprtStore, State, UnknownSprtError
from arena.tournament.lifecycle import Command, LifecycleError

WIDE = SprtDefinition("wide", "greedy", "random", elo0=0.0, elo1=50.0)


def test_a_pair_is_counted_once(redis_client: redis.Redis) -> None:
    store = SprtStore(redis_client)
    store.create(WIDE)
    first = store.apply_pair("wide", 0, 4)
    assert first is not None and first.counts == (0, 0, 0, 0, 1)
    assert store.apply_pair("wide", 0, 4) is None
    assert store.apply_pair("wide", 0, 0) is None, "a replay with another score is not counted"
    status = store.status("wide")
    assert status.counts == (0, 0, 0, 0, 1) and status.pairs == 1
    assert store.is_applied("wide", 0) and not store.is_applied("wide", 1)


def test_concurrent_pairs_are_all_counted_and_none_twice(redis_client: redis.Redis) -> None:
    store = SprtStore(redis_client)
    store.create(SprtDefinition("busy", "greedy", "random", elo0=0.0, elo1=1.0))

    def count(numbers: range) -> None:
        for number in numbers:
            SprtStore(redis_client).apply_pair("busy", number, number % 5)

    # two threads each count every pair 0..39: the transaction lets one of each through
    threads = [threading.Thread(target=count, args=(range(40),)) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    status = store.status("busy")
    assert status.counts == (8, 8, 8, 8, 8)
    assert redis_client.hlen(keys.sprt_applied("busy")) == 40


def test_the_test_accepts_h1_at_the_upper_bound_and_counts_nothing_after(
    redis_client: redis.Redis,
) -> None:
    store = SprtStore(redis_client)
    store.create(WIDE)
    states = []
    for number in range(40):  # every pair swept: nElo far above 50
        applied = store.apply_pair("wide", number, 4)
        if applied is None:
            break
        states.append(applied.state)
    assert states[-1] is State.ACCEPTED_H1 and set(states[:-1]) == {State.RUNNING}
    status = store.status("wide")
    assert status.state is State.ACCEPTED_H1 and status.llr >= WIDE.bounds[1]
    assert status.pairs == len(states) and status.ended is not None
    assert store.apply_pair("wide", 99, 4) is None


def test_the_test_accepts_h0_at_the_lower_bound(redis_client: redis.Redis) -> None:
    store = SprtStore(redis_client)
    store.create(WIDE)
    number = 0
    while store.apply_pair("wide", number, 0) is not None:
        number += 1
    assert store.status("wide").state is State.ACCEPTED_H0
    assert store.status("wide").llr <= WIDE.bounds[0]


def test_a_test_decided_by_pairs_that_all_scored_alike_gives_an_elo_bound(
    redis_client: redis.Redis,
) -> None:
    store = SprtStore(redis_client)
    store.create(SprtDefinition("swept", "greedy", "random", elo0=0.0, elo1=5.0))
    number = 0
    while store.apply_pair("swept", number, 4) is not None:
        number += 1
    status = store.status("swept")
    pairs = status.pairs
    assert status.state is State.ACCEPTED_H1 and status.counts == (0, 0, 0, 0, pairs)
    # At least q = 0.025 ** (1 / pairs) of all pairs score 2; the worst case scores 0 for the
    # rest: a pair mean q with variance q (1 - q), so nElo = (q - 1/2) / sqrt(2 var) * 800 / ln 10.
    q = 0.025 ** (1 / pairs)
    bound = (q - 0.5) / math.sqrt(2 * q * (1 - q)) * 800 / math.log(10)
    elo = status.elo()
    assert elo is not None and elo.elo == elo.high == math.inf
    assert elo.low == pytest.approx(bound) and bound > 0
    assert status.elo_text() == (
        f"at least {bound:.1f} (95% lower bound; all {pairs} pairs scored alike)"
    )
    store.create(SprtDefinition("lost", "random", "greedy", elo0=0.0, elo1=5.0, normalized=False))
    for number in range(3):
        store.apply_pair("lost", number, 0)
    high = -400 * math.log10(1 / (1 - 0.025 ** (1 / 3)) - 1)  # the rest all won: logistic Elo
    assert store.status("lost").elo_text() == (
        f"at most {high:.1f} (95% upper bound; all 3 pairs scored alike)"
    )


def test_the_cap_ends_a_test_between_the_bounds(redis_client: redis.Redis) -> None:
    store = SprtStore(redis_client)
    store.create(SprtDefinition("short", "greedy", "random", max_pairs=3))
    for number, halves in enumerate((4, 0, 2)):
        store.apply_pair("short", number, halves)
    status = store.status("short")
    assert status.state is State.CAPPED and status.pairs == 3
    assert WIDE.bounds[0] < status.llr < WIDE.bounds[1]


def test_stop_ends_a_running_test_once(redis_client: redis.Redis) -> None:
    store = SprtStore(redis_client)
    store.create(WIDE)
    assert store.stop("wide", "enough")
    assert not store.stop("wide", "again")
    status = store.status("wide")
    assert status.state is State.STOPPED and status.reason == "enough"
    assert store.apply_pair("wide", 0, 4) is None
    with pytest.raises(UnknownSprtError, match="unknown SPRT 'nope'; known SPRTs: wide"):
        store.stop("nope", "x")


def test_a_name_is_taken_once(redis_client: redis.Redis) -> None:
    store = SprtStore(redis_client)
    store.create(WIDE)
    with pytest.raises(LifecycleError, match=r"SPRT wide is running \(0 pairs, LLR 0.000\); "):
        store.create(SprtDefinition("wide", "search#64", "search#8"))
    assert store.get("wide") == WIDE and store.names() == ["wide"]


def test_a_decided_test_refuses_to_start_or_stop_naming_its_state(
    redis_client: redis.Redis,
) -> None:
    store = SprtStore(redis_client)
    store.create(WIDE)
    number = 0
    while store.apply_pair("wide", number, 4) is not None:
        number += 1
    status = store.status("wide")
    assert status.state is State.ACCEPTED_H1 and not store.stop("wide", "late")
    message = f"SPRT wide is finished (accepted H1: {status.pairs} pairs, LLR {status.llr:.3f}); "
    with pytest.raises(LifecycleError) as refused:
        store.create(WIDE)
    assert str(refused.value) == message + "nothing to start"
    assert str(status.refusal(Command.STOP)) == message + "nothing to stop"


def test_the_elo_estimate_has_an_interval(redis_client: redis.Redis) -> None:
    store = SprtStore(redis_client)
    store.create(SprtDefinition("est", "greedy", "random", elo0=0.0, elo1=1.0))
    assert store.status("est").elo() is None, "no pairs yet"
    for number, halves in enumerate((4, 4, 2, 0, 4, 3, 1, 4)):
        store.apply_pair("est", number, halves)
    elo = store.status("est").elo()
    assert elo is not None and elo.low < elo.elo < elo.high and elo.elo > 0
    assert elo.samples == 8


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"elo0": 5.0, "elo1": 5.0}, "need finite elo0 < elo1"),
        ({"elo0": 6.0, "elo1": 5.0}, "need finite elo0 < elo1"),
        ({"alpha": 0.0}, "alpha must lie strictly between 0 and 1"),
        ({"beta": 1.0}, "beta must lie strictly between 0 and 1"),
        ({"alpha": 0.6, "beta": 0.5}, r"alpha \+ beta must be below 1"),
        ({"name": "no spaces"}, "bad SPRT name"),
        ({"base": "greedy"}, "the test and base bots must differ"),
        ({"max_pairs": 0}, "max pairs must be at least 1"),
        ({"batch_pairs": 0}, "batch pairs must be at least 1"),
    ],
)
def test_bad_definitions_say_why(changes: dict[str, object], message: str) -> None:
    fields: dict[str, object] = {"name": "t", "test": "greedy", "base": "random"} | changes
    with pytest.raises(SprtError, match=message):
        SprtDefinition(**fields)  # type: ignore[arg-type]


def test_batches_stop_at_the_cap() -> None:
    definition = SprtDefinition("t", "greedy", "random", max_pairs=10, batch_pairs=4)
    assert [list(definition.batch_pairs_of(b)) for b in range(4)] == [
        [0, 1, 2, 3],
        [4, 5, 6, 7],
        [8, 9],
        [],
    ]


def test_each_counted_pair_leaves_one_history_point_and_a_recount_none(
    redis_client: redis.Redis,
) -> None:
    store = SprtStore(redis_client)
    store.create(SprtDefinition("hist", "greedy", "random", elo0=0.0, elo1=1.0))
    assert store.history("hist") == []
    after = []
    for number, halves in enumerate((4, 3, 2, 2, 0, 4, 1)):
        counted = store.apply_pair("hist", number, halves)
        assert counted is not None
        after.append(counted)
        assert store.apply_pair("hist", number, halves) is None, "a retried pair adds nothing"
    history = store.history("hist")
    assert [p.pairs for p in history] == [1, 2, 3, 4, 5, 6, 7]
    assert [p.llr for p in history] == [s.llr for s in after]
    last, elo = history[-1], after[-1].elo()
    assert elo is not None and (last.elo, last.low, last.high) == (elo.elo, elo.low, elo.high)
    first = history[0]  # one pair won: no estimate, a lower bound, kept as infinities
    assert first.elo is not None and math.isinf(first.elo) and math.isinf(first.high or 0.0)


def test_concurrent_counting_leaves_one_history_point_a_pair(redis_client: redis.Redis) -> None:
    store = SprtStore(redis_client)
    store.create(SprtDefinition("race", "greedy", "random", elo0=0.0, elo1=1.0))

    def count() -> None:
        for number in range(30):
            SprtStore(redis_client).apply_pair("race", number, number % 5)

    threads = [threading.Thread(target=count) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [p.pairs for p in store.history("race")] == list(range(1, 31))


def test_a_test_counted_before_the_history_was_kept_shows_its_current_figures(
    redis_client: redis.Redis,
) -> None:
    store = SprtStore(redis_client)
    store.create(SprtDefinition("old", "greedy", "random", elo0=0.0, elo1=1.0))
    for number, halves in enumerate((4, 0, 2)):
        store.apply_pair("old", number, halves)
    redis_client.delete(keys.sprt_history("old"))
    status = store.status("old")
    assert [(p.pairs, p.llr) for p in store.history("old")] == [(3, status.llr)]
