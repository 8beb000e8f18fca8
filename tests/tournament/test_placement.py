"""Placement points, duplicate tables and the standings of a tournament of tables."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.tournament import (
    DuplicateEntrantError,
    InvalidHistoryError,
    InvalidOptionError,
    InvalidResultError,
    UnknownEntrantError,
)
from arena.tournament.model import DRAW, LOSS, WIN
from arena.tournament.placement import (
    TableBye,
    TableResult,
    duplicate_result,
    placement_points,
    placements,
    rotations,
    table_standings,
)

game_points = st.integers(-5, 40).map(float)  # small range: ties are common
tables_scores = st.integers(2, 6).flatmap(lambda k: st.lists(game_points, min_size=k, max_size=k))


def test_three_players_score_one_half_zero() -> None:
    assert placement_points([12.0, 30.0, 7.0]) == (0.5, 1.0, 0.0)


def test_ties_share_the_mean_of_their_places() -> None:
    assert placements([5.0, 9.0, 5.0]) == (2.5, 1.0, 2.5)
    assert placement_points([5.0, 9.0, 5.0]) == (0.25, 1.0, 0.25)
    assert placement_points([3.0, 3.0, 3.0, 1.0]) == pytest.approx((2 / 3, 2 / 3, 2 / 3, 0.0))
    assert placement_points([4.0, 4.0, 4.0]) == (0.5, 0.5, 0.5)


@given(scores=st.tuples(game_points, game_points))
def test_a_table_of_two_scores_like_a_match(scores: tuple[float, float]) -> None:
    a, b = scores
    expected = WIN if a > b else DRAW if a == b else LOSS
    assert placement_points(scores)[0] == expected


@given(scores=tables_scores)
def test_placement_points_sum_to_half_the_table_whatever_the_ties(scores: list[float]) -> None:
    points = placement_points(scores)
    assert math.isclose(sum(points), len(scores) / 2)
    assert all(0 <= p <= 1 for p in points)
    for i, a in enumerate(scores):
        for j, b in enumerate(scores):
            if a > b:
                assert points[i] > points[j]
            if a == b:
                assert points[i] == points[j]


@given(size=st.integers(2, 6))
def test_duplicate_rotations_give_every_entrant_every_seat_once(size: int) -> None:
    table = [f"p{i}" for i in range(size)]
    orders = rotations(table)
    assert len(orders) == size
    for entrant in table:
        assert sorted(order.index(entrant) for order in orders) == list(range(size))


def test_duplicate_result_adds_each_entrants_games_over_the_rotations() -> None:
    # V12: three deals... here one deal replayed in each rotation; seats: Cream, Mint, Snitch.
    table = ("ann", "bob", "cid")
    assert rotations(table) == [table, ("cid", "ann", "bob"), ("bob", "cid", "ann")]
    games = [(10.0, 4.0, 7.0), (9.0, 8.0, 1.0), (3.0, 6.0, 6.0)]
    result = duplicate_result(2, table, games)
    # ann: 10 + 8 + 6; bob: 4 + 1 + 3; cid: 7 + 9 + 6
    assert result == TableResult(2, table, (24.0, 8.0, 22.0))
    assert result.points == (1.0, 0.0, 0.5)
    with pytest.raises(InvalidResultError, match="plays 3 games"):
        duplicate_result(2, table, games[:2])
    with pytest.raises(InvalidResultError, match="3 seats but 2 scores"):
        duplicate_result(2, table, [*games[:2], (1.0, 2.0)])


@pytest.mark.parametrize(
    ("entrants", "scores", "message"),
    [
        (("a",), (1.0,), "at least 2"),
        (("a", "a", "b"), (1.0, 2.0, 3.0), "sits twice"),
        (("a", "b", "c"), (1.0, 2.0), "3 entrants but 2 scores"),
        (("a", "b"), (1.0, math.nan), "finite"),
    ],
)
def test_malformed_table_results_are_refused(
    entrants: tuple[str, ...], scores: tuple[float, ...], message: str
) -> None:
    with pytest.raises(InvalidResultError, match=message):
        TableResult(1, entrants, scores)
    with pytest.raises(InvalidResultError, match="round numbers start at 1"):
        TableResult(0, ("a", "b"), (1.0, 2.0))


def test_standings_order_points_then_wins_then_average_score() -> None:
    field = ["ann", "bob", "cid", "dan"]
    results = [
        TableResult(1, ("ann", "bob", "cid"), (20.0, 10.0, 0.0)),  # ann 1, bob .5, cid 0
        TableResult(2, ("bob", "cid", "dan"), (10.0, 5.0, 5.0)),  # bob 1, cid .25, dan .25
        TableResult(3, ("cid", "dan", "ann"), (9.0, 9.0, 1.0)),  # cid .75, dan .75, ann 0
    ]
    byes = [TableBye(1, "dan"), TableBye(2, "ann"), TableBye(3, "bob")]
    lines = table_standings(field, results, byes)
    assert [(s.entrant, s.points, s.wins) for s in lines] == [
        ("bob", 2.0, 1),  # 0.5 + 1 + bye 0.5; 1 win
        ("ann", 1.5, 1),  # 1 + 0 + 0.5; 1 win, average (20 + 1) / 2 = 10.5
        ("dan", 1.5, 1),  # 0.5 + 0.25 + 0.75; shared first in round 3, average 7
        ("cid", 1.0, 1),
    ]
    assert [s.rank for s in lines] == [1, 2, 3, 4]
    assert lines[1].average_score == 10.5 and lines[2].average_score == 7.0
    assert [(s.tables, s.byes) for s in lines] == [(2, 1)] * 3 + [(3, 0)]
    assert lines[3].seats == (1, 1, 1)  # cid sat in seats 2, 1, 0
    free = table_standings(field, results, byes, bye_points=1.0)
    assert [(s.entrant, s.points) for s in free][:2] == [("bob", 2.5), ("ann", 2.0)]


def test_head_to_head_separates_entrants_level_on_everything_else() -> None:
    field = ["ann", "bob", "cid"]
    results = [
        TableResult(1, ("ann", "bob", "cid"), (5.0, 9.0, 1.0)),
        TableResult(2, ("ann", "bob", "cid"), (9.0, 1.0, 5.0)),
        TableResult(3, ("ann", "bob", "cid"), (1.0, 5.0, 9.0)),
    ]
    # Everyone: 1.5 points, one win, average 5. Head to head: ann beat bob twice of three.
    lines = table_standings(field, results)
    assert {s.points for s in lines} == {1.5}
    assert [(s.entrant, s.head_to_head) for s in lines] == [
        ("ann", 3.0),
        ("bob", 3.0),
        ("cid", 3.0),
    ]  # a perfect cycle: head-to-head cannot split them, seeding does


def test_head_to_head_decides_between_entrants_level_on_points_wins_and_average() -> None:
    field = ["bob", "ann", "cid", "dan"]  # seeding would put bob first
    results = [
        TableResult(1, ("ann", "bob", "cid"), (6.0, 3.0, 0.0)),  # ann ahead of bob
        TableResult(2, ("bob", "cid", "dan"), (6.0, 3.0, 0.0)),
        TableResult(3, ("ann", "cid", "dan"), (3.0, 6.0, 0.0)),
    ]
    byes = [TableBye(1, "dan"), TableBye(2, "ann"), TableBye(3, "bob")]
    lines = table_standings(field, results, byes)
    assert [(s.entrant, s.points, s.wins, s.average_score) for s in lines[:2]] == [
        ("ann", 2.0, 1, 4.5),
        ("bob", 2.0, 1, 4.5),
    ]
    assert [s.head_to_head for s in lines[:2]] == [1.0, 0.0]
    assert [s.entrant for s in lines[2:]] == ["cid", "dan"]


@given(data=st.data())
@settings(max_examples=60, deadline=None)
def test_standings_points_add_up_to_what_tables_and_byes_handed_out(data: st.DataObject) -> None:
    field = [f"e{i}" for i in range(data.draw(st.integers(2, 9)))]
    results, byes = [], []
    for number in range(1, data.draw(st.integers(0, 5)) + 1):
        seated = data.draw(st.permutations(field))
        size = data.draw(st.integers(2, len(field)))
        results.append(TableResult(number, tuple(seated[:size]), tuple(data.draw(
            st.lists(game_points, min_size=size, max_size=size)))))  # fmt: skip
        byes += [TableBye(number, e) for e in seated[size:]]
    bye_points = data.draw(st.sampled_from([0.0, 0.5, 1.0]))
    lines = table_standings(field, results, byes, bye_points)
    expected = sum(len(r.entrants) / 2 for r in results) + bye_points * len(byes)
    assert math.isclose(sum(s.points for s in lines), expected)
    assert sorted(s.entrant for s in lines) == sorted(field)
    keys = [(-s.points, -s.wins, -s.average_score, -s.head_to_head) for s in lines]
    assert keys == sorted(keys)


def test_inconsistent_history_is_refused() -> None:
    field = ["a", "b", "c"]
    with pytest.raises(UnknownEntrantError, match="'z'"):
        table_standings(field, [TableResult(1, ("a", "z"), (1.0, 0.0))])
    with pytest.raises(InvalidHistoryError, match="two records in round 1"):
        table_standings(field, [TableResult(1, ("a", "b"), (1.0, 0.0))], [TableBye(1, "a")])
    with pytest.raises(InvalidOptionError, match="bye points"):
        table_standings(field, [], bye_points=2.0)
    with pytest.raises(DuplicateEntrantError):
        table_standings(["a", "a"], [])
