"""Rounds of tables: the round robin of tables, the balanced design, Swiss pods and seat balance."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.tournament import (
    DuplicateEntrantError,
    InvalidHistoryError,
    InvalidOptionError,
    InvalidResultError,
    TooFewEntrantsError,
    UnknownEntrantError,
)
from arena.tournament.grouping import best_seating
from arena.tournament.placement import TableBye, TableResult, table_standings
from arena.tournament.pods import PodHistory, pair_pods
from arena.tournament.tables import MAX_TABLES, TableRound, seat_order, table_round_robin


def field(n: int) -> list[str]:
    return [f"e{i:04d}" for i in range(n)]


def pair_counts(rounds: Sequence[TableRound], entrants: Sequence[str]) -> list[int]:
    met = Counter(frozenset(p) for r in rounds for t in r.tables for p in combinations(t, 2))
    return [met[frozenset(p)] for p in combinations(entrants, 2)]


def seat_spread(rounds: Sequence[TableRound]) -> int:
    """The largest gap, over entrants, between their most and least used seat."""
    size = max(len(t) for r in rounds for t in r.tables)
    seats: dict[str, list[int]] = {}
    for r in rounds:
        for t in r.tables:
            for seat, entrant in enumerate(t):
                seats.setdefault(entrant, [0] * size)[seat] += 1
    return max(max(used) - min(used) for used in seats.values())


def check_rounds(rounds: Sequence[TableRound], entrants: Sequence[str], size: int) -> None:
    """Every round seats each entrant at one table or gives it a bye, never both or twice."""
    for offset, r in enumerate(rounds):
        assert r.number == rounds[0].number + offset
        seated = [e for t in r.tables for e in t]
        assert sorted(seated + list(r.byes)) == sorted(entrants)
        assert all(len(t) == size for t in r.tables)


def test_a_round_refuses_an_entrant_twice() -> None:
    with pytest.raises(InvalidResultError, match="'b' appears twice in round 3"):
        TableRound(3, (("a", "b", "c"), ("d", "b", "e")))
    with pytest.raises(InvalidResultError, match="'a' appears twice"):
        TableRound(1, (("a", "b", "c"),), ("a",))


small_fields = st.integers(2, 5).flatmap(
    lambda k: st.tuples(
        st.just(k), st.integers(k, 12).filter(lambda n: math.comb(n, k) <= MAX_TABLES)
    )
)


@given(shape=small_fields)
@settings(max_examples=60, deadline=None)
def test_round_robin_plays_every_subset_exactly_once(shape: tuple[int, int]) -> None:
    size, n = shape
    entrants = field(n)
    rounds = table_round_robin(entrants, size)
    check_rounds(rounds, entrants, size)
    played = Counter(frozenset(t) for r in rounds for t in r.tables)
    assert set(played) == {frozenset(c) for c in combinations(entrants, size)}
    assert set(played.values()) == {1}
    byes = Counter(e for r in rounds for e in r.byes)
    assert len({byes[e] for e in entrants}) == 1  # everyone plays the same number of tables
    assert seat_spread(rounds) <= 2


def test_round_robin_of_nine_in_threes() -> None:
    rounds = table_round_robin(field(9), 3)
    # 84 tables; a perfect packing would take 28 rounds of three tables.
    assert sum(len(r.tables) for r in rounds) == 84
    assert len(rounds) <= 29
    assert set(pair_counts(rounds, field(9))) == {7}


designs = st.tuples(
    st.sampled_from([3, 4]), st.integers(9, 40), st.one_of(st.none(), st.integers(1, 6))
).filter(lambda s: s[1] >= 3 * s[0] and (s[2] is not None or math.comb(s[1], s[0]) > MAX_TABLES))


@given(shape=designs, seed=st.integers(0, 3))
@settings(max_examples=40, deadline=None)
def test_balanced_design_spreads_meetings_byes_and_seats(
    shape: tuple[int, int, int | None], seed: int
) -> None:
    size, n, wanted = shape
    entrants = field(n)
    rounds = table_round_robin(entrants, size, rounds=wanted, seed=seed)
    assert len(rounds) == (wanted or math.ceil((n - 1) / (size - 1)))
    check_rounds(rounds, entrants, size)
    counts = pair_counts(rounds, entrants)
    assert max(counts) - min(counts) <= 3
    assert all(len(r.byes) == n % size for r in rounds)
    byes = Counter(e for r in rounds for e in r.byes)
    assert max(byes[e] for e in entrants) - min(byes[e] for e in entrants) <= 1
    assert seat_spread(rounds) <= 2
    assert rounds == table_round_robin(entrants, size, rounds=wanted, seed=seed)


def test_balanced_design_of_thirty_in_threes_meets_nearly_everyone_once() -> None:
    entrants = field(30)
    rounds = table_round_robin(entrants, 3)  # 4060 subsets: too many, so a design
    assert len(rounds) == 15  # 29 opponents, two a table
    counts = Counter(pair_counts(rounds, entrants))
    assert max(counts) <= 2
    # 15 rounds of ten tables of three pairs: 450 meetings over 435 pairs, so 15 at least meet
    # twice; each further pair meeting twice leaves one pair that never meets.
    assert counts[2] - counts[0] == 15
    assert counts[0] <= 20


@pytest.mark.parametrize(
    ("entrants", "size", "error", "message"),
    [
        (field(5), 1, InvalidOptionError, "2 to 6"),
        (field(9), 7, InvalidOptionError, "2 to 6"),
        (field(3), 4, TooFewEntrantsError, "at least 4"),
        (["a", "b", "a"], 2, DuplicateEntrantError, "'a'"),
    ],
)
def test_round_robin_refuses_impossible_fields(
    entrants: list[str], size: int, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        table_round_robin(entrants, size)
    with pytest.raises(error, match=message):
        pair_pods(entrants, PodHistory(), 1, size)


def test_round_robin_refuses_zero_rounds() -> None:
    with pytest.raises(InvalidOptionError, match="at least one round"):
        table_round_robin(field(9), 3, rounds=0)


def test_seat_order_gives_each_entrant_its_least_used_seat() -> None:
    counts = {"a": [2, 0, 1], "b": [0, 1, 1], "c": [1, 1, 0]}
    assert seat_order(("a", "b", "c"), counts) == ("b", "a", "c")
    assert seat_order(("a", "b", "c"), {}) == ("a", "b", "c")  # nothing to balance yet


@given(data=st.data())
@settings(max_examples=80, deadline=None)
def test_best_seating_is_as_good_as_trying_every_order(data: st.DataObject) -> None:
    size = data.draw(st.integers(2, 6))
    vector = st.lists(st.integers(0, 3), min_size=size, max_size=size).map(tuple)
    excess = data.draw(st.lists(vector, min_size=size, max_size=size))
    overloads, cost, order = best_seating(excess)

    def grade(seating: Sequence[int]) -> tuple[int, int]:
        chosen = [excess[who][seat] for seat, who in enumerate(seating)]
        return sum(x >= 2 for x in chosen), sum(x * x for x in chosen)

    assert sorted(order) == list(range(size))
    assert grade(order) == (overloads, cost) == min(map(grade, permutations(range(size))))


# --- Swiss pods ------------------------------------------------------------------------------


def partitions(entrants: Sequence[str], size: int) -> Iterator[list[tuple[str, ...]]]:
    """Every way to cut `entrants` into tables of `size` (brute force, small fields only)."""
    if not entrants:
        yield []
        return
    head, rest = entrants[0], entrants[1:]
    for companions in combinations(rest, size - 1):
        left = [e for e in rest if e not in companions]
        for tail in partitions(left, size):
            yield [(head, *companions), *tail]


def meetings(tables: Sequence[Sequence[str]], results: Sequence[TableResult]) -> int:
    met = Counter(frozenset(p) for r in results for p in combinations(r.entrants, 2))
    return sum(met[frozenset(p)] for t in tables for p in combinations(t, 2))


@given(data=st.data())
@settings(max_examples=40, deadline=None)
def test_pods_meet_again_as_rarely_as_possible_and_byes_go_bottom_up(
    data: st.DataObject,
) -> None:
    size = data.draw(st.integers(2, 4), "size")
    entrants = field(data.draw(st.integers(size, 12), "n"))
    bye_points = data.draw(st.sampled_from([0.0, 0.5, 1.0]), "bye points")
    results: list[TableResult] = []
    byes: list[TableBye] = []
    for number in range(1, data.draw(st.integers(1, 6), "rounds") + 1):
        history = PodHistory(tuple(results), tuple(byes))
        round_ = pair_pods(entrants, history, number, size, bye_points=bye_points)
        check_rounds([round_], entrants, size)
        assert len(round_.byes) == len(entrants) % size
        ranked = [s.entrant for s in table_standings(entrants, results, byes, bye_points)]
        had = Counter(b.entrant for b in byes)
        for resting in round_.byes:
            for player in (e for t in round_.tables for e in t):
                # Fewest byes first; among those, the lowest-ranked.
                assert (had[player], ranked.index(resting)) > (had[resting], ranked.index(player))
        playing = [e for e in ranked if e not in round_.byes]
        least = min(meetings(p, results) for p in partitions(playing, size))
        assert meetings(round_.tables, results) == least
        byes += round_.bye_records
        for table in round_.tables:
            scores = data.draw(st.lists(st.integers(0, 9), min_size=size, max_size=size))
            results.append(TableResult(number, table, tuple(map(float, scores))))


@pytest.mark.parametrize(("n", "size"), [(12, 2), (12, 3), (12, 4), (11, 3), (10, 4), (9, 3)])
def test_pods_of_twelve_or_fewer_are_exactly_as_good_as_brute_force(n: int, size: int) -> None:
    entrants = field(n)
    rng = random.Random(n * size)
    results: list[TableResult] = []
    byes: list[TableBye] = []
    for number in range(1, 8):
        round_ = pair_pods(entrants, PodHistory(tuple(results), tuple(byes)), number, size)
        ranked = [s.entrant for s in table_standings(entrants, results, byes)]
        playing = [e for e in ranked if e not in round_.byes]
        least = min(meetings(p, results) for p in partitions(playing, size))
        assert meetings(round_.tables, results) == least
        byes += round_.bye_records
        for table in round_.tables:
            results.append(
                TableResult(number, table, tuple(rng.choice((0.0, 1.0, 2.0)) for _ in table))
            )


def test_pods_group_by_score_in_ranking_order() -> None:
    entrants = field(9)
    first = pair_pods(entrants, PodHistory(), 1, 3)
    assert [sorted(t) for t in first.tables] == [entrants[0:3], entrants[3:6], entrants[6:9]]
    results = tuple(TableResult(1, t, (3.0, 2.0, 1.0)) for t in first.tables)
    second = pair_pods(entrants, PodHistory(results), 2, 3)
    # The three winners, then the three seconds, then the three thirds: nobody met before.
    by_seat0 = [{t[0] for t in first.tables}, {t[1] for t in first.tables}]
    assert {frozenset(t) for t in second.tables} >= {frozenset(s) for s in by_seat0}
    assert meetings(second.tables, results) == 0


def test_pods_of_a_thousand_never_meet_again_and_keep_seats_balanced() -> None:
    entrants = field(1000)
    results: list[TableResult] = []
    byes: list[TableBye] = []
    rounds = []
    for number in range(1, 7):
        round_ = pair_pods(entrants, PodHistory(tuple(results), tuple(byes)), number, 3)
        assert meetings(round_.tables, results) == 0
        assert len(round_.byes) == 1
        rounds.append(round_)
        byes += round_.bye_records
        for i, table in enumerate(round_.tables):
            results.append(TableResult(number, table, (float(i % 3), float(i % 5), 1.0)))
    check_rounds(rounds, entrants, 3)
    assert len({b.entrant for b in byes}) == 6
    assert seat_spread(rounds) <= 2


def test_withdrawn_entrants_are_not_seated_but_their_meetings_still_count() -> None:
    entrants = field(7)
    results = (TableResult(1, tuple(entrants[:3]), (3.0, 2.0, 1.0)),)
    history = PodHistory(results, (TableBye(1, "e0006"),))
    round_ = pair_pods(entrants, history, 2, 3, withdrawn={"e0000"})
    check_rounds([round_], entrants[1:], 3)
    assert not round_.byes
    assert meetings(round_.tables, results) == 0  # e0001 and e0002 are kept apart
    with pytest.raises(UnknownEntrantError, match="withdrawn list names unknown entrant 'zed'"):
        pair_pods(entrants, history, 2, 3, withdrawn={"zed"})
    with pytest.raises(TooFewEntrantsError):
        pair_pods(entrants, history, 2, 3, withdrawn=set(entrants[:5]))


def test_pods_refuse_a_round_already_on_record_and_strangers() -> None:
    entrants = field(6)
    history = PodHistory((TableResult(2, tuple(entrants[:3]), (1.0, 2.0, 3.0)),))
    with pytest.raises(InvalidHistoryError, match="round 2 is already on record"):
        pair_pods(entrants, history, 2, 3)
    stranger = PodHistory((TableResult(1, ("e0000", "zed", "e0001"), (1.0, 2.0, 3.0)),))
    with pytest.raises(UnknownEntrantError, match="'zed'"):
        pair_pods(entrants, stranger, 2, 3)
    with pytest.raises(InvalidOptionError, match="bye points"):
        pair_pods(entrants, PodHistory(), 1, 3, bye_points=-1.0)
