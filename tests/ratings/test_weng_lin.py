"""Weng-Lin (openskill's Plackett-Luce) for pairs, teams and tables: pure maths."""

from __future__ import annotations

import math

import pytest

from arena.ratings import InvalidParameterError, InvalidResultError
from arena.ratings.ladder import LadderParams, Outcome, Standing, rate_outcomes, rate_period
from arena.ratings.weng_lin import (
    WengLinConfig,
    WengLinRating,
    placement_ranks,
    weng_lin_rate,
)

NO_DRIFT = WengLinConfig(tau=0.0)  # openskill's documented examples predate its default tau


def test_openskills_documented_two_against_two() -> None:
    # openskill's manual: a1 and a2 win against b1 and b2.
    teams = [
        [WengLinRating(), WengLinRating(32.444, 5.123)],
        [WengLinRating(43.381, 2.421), WengLinRating(25.188, 6.211)],
    ]
    [[x1, x2], [y1, y2]] = weng_lin_rate(teams, [0, 1], NO_DRIFT)
    assert (x1.mu, x1.sigma) == (28.669648436582808, 8.071520788025197)
    assert (x2.mu, x2.sigma) == (33.83086971107981, 5.062772998705765)
    assert (y1.mu, y1.sigma) == (43.071274808241974, 2.4166900452721256)
    assert (y2.mu, y2.sigma) == (23.149503312339064, 6.1378606973362135)


def test_openskills_documented_artificial_ranks() -> None:
    # openskill's manual: four new players ranked [4, 1, 3, 2].
    rated = weng_lin_rate([[WengLinRating()] for _ in range(4)], [4, 1, 3, 2], NO_DRIFT)
    assert (rated[0][0].mu, rated[0][0].sigma) == (20.96265504062538, 8.083731307186588)
    assert (rated[1][0].mu, rated[1][0].sigma) == (27.795084971874736, 8.263160757613477)


def test_openskills_documented_ordinal() -> None:
    assert WengLinRating(43.07, 2.42).ordinal == pytest.approx(35.81)
    assert Standing().ordinal == 0.0  # 25 - 3 * 25/3


def test_the_default_drift_widens_sigma_before_each_result() -> None:
    [[winner], [loser]] = weng_lin_rate([[WengLinRating()], [WengLinRating()]], [0, 1])
    [[still], [_]] = weng_lin_rate([[WengLinRating()], [WengLinRating()]], [0, 1], NO_DRIFT)
    assert winner.mu > 25.0 > loser.mu and winner.mu - 25.0 == pytest.approx(25.0 - loser.mu)
    assert winner.sigma > still.sigma


def test_placements_rank_by_score_and_ties_share() -> None:
    assert placement_ranks([12.0, 30.0, 12.0]) == (1, 0, 1)
    table = Outcome.table([(("a",), 12.0), (("b",), 30.0), (("c",), 3.0)])
    assert (table.ranks, table.shares) == ((1, 0, 2), (0.5, 1.0, 0.0))
    tied = Outcome.table([(("a",), 9.0), (("b",), 9.0), (("c",), 3.0)])
    assert (tied.ranks, tied.shares) == ((0, 0, 2), (0.75, 0.75, 0.0))
    assert [tied.mark(side) for side in range(3)] == [0, 0, -1]


def test_a_three_player_table() -> None:
    # The Snitch game: three sides of one bot each, placed by score.
    before = {"b": Standing(mu=27.0, sigma=5.0)}
    table = Outcome.table([(("a",), 12.0), (("b",), 30.0), (("c",), 3.0)])
    after = rate_outcomes(before, [table], LadderParams())
    expected = weng_lin_rate(
        [[WengLinRating()], [WengLinRating(27.0, 5.0)], [WengLinRating()]], [1, 0, 2]
    )
    for player, [rating] in zip("abc", expected, strict=True):
        assert (after[player].mu, after[player].sigma) == (rating.mu, rating.sigma)
    assert after["b"].mu > 27.0 and after["c"].mu < 25.0
    # A table is not head-to-head: Elo and Glicko-2 stay where they were.
    assert (after["a"].elo, after["a"].rating, after["a"].rd) == (1500.0, 1500.0, 350.0)
    assert [(after[p].wins, after[p].draws, after[p].losses) for p in "abc"] == [
        (0, 0, 1),
        (1, 0, 0),
        (0, 0, 1),
    ]
    assert [after[p].points for p in "abc"] == [0.5, 1.0, 0.0]
    assert all(after[p].games == 1 for p in "abc")


def test_a_two_against_two_team_result() -> None:
    team = Outcome.table([(("a1", "a2"), 1.0), (("b1", "b2"), 0.0)])
    assert not team.head_to_head
    after = rate_outcomes({}, [team], LadderParams())
    [[a1, a2], [b1, b2]] = weng_lin_rate([[WengLinRating()] * 2, [WengLinRating()] * 2], [0, 1])
    assert (after["a1"].mu, after["a2"].mu) == (a1.mu, a2.mu) and a1.mu > 25.0
    assert (after["b1"].sigma, after["b2"].sigma) == (b1.sigma, b2.sigma) and b1.mu < 25.0
    assert (after["a1"].wins, after["b2"].losses, after["a1"].elo) == (1, 1, 1500.0)


def test_a_pair_result_updates_all_three_systems() -> None:
    after = rate_period({}, [("a", "b", 0.75)], LadderParams())
    [[a], [b]] = weng_lin_rate([[WengLinRating()], [WengLinRating()]], [0, 1])
    assert (after["a"].mu, after["b"].mu) == (a.mu, b.mu)
    assert after["a"].elo > 1500.0 > after["b"].elo and after["a"].points == 0.75
    draw = rate_period({}, [("a", "b", 0.5)], LadderParams())
    assert draw["a"].mu == draw["b"].mu == 25.0 and draw["a"].draws == 1


def test_weng_lin_is_sequential_inside_a_period() -> None:
    # Two results of one period: the second sees the first's Weng-Lin update (online method),
    # while Elo and Glicko-2 rate both against the pre-period values.
    results = [("a", "b", 1.0), ("a", "c", 1.0)]
    after = rate_period({}, results, LadderParams())
    [[a1], _] = weng_lin_rate([[WengLinRating()], [WengLinRating()]], [0, 1])
    [[a2], [c2]] = weng_lin_rate([[a1], [WengLinRating()]], [0, 1])
    assert (after["a"].mu, after["a"].sigma, after["c"].mu) == (a2.mu, a2.sigma, c2.mu)


def test_bad_outcomes_and_constants_are_refused() -> None:
    with pytest.raises(InvalidResultError, match="at most one seat"):
        Outcome.table([(("a", "b"), 1.0), (("b",), 0.0)])
    with pytest.raises(InvalidResultError, match="at least two sides"):
        Outcome.table([(("a",), 1.0)])
    with pytest.raises(InvalidResultError, match="at least two sides"):
        Outcome.table([(("a",), 1.0), ((), 0.0)])
    with pytest.raises(InvalidResultError, match="score"):
        Outcome.table([(("a",), math.nan), (("b",), 0.0)])
    with pytest.raises(InvalidResultError, match="ranks"):
        weng_lin_rate([[WengLinRating()], [WengLinRating()]], [0])
    with pytest.raises(InvalidParameterError, match="beta"):
        WengLinConfig(beta=0.0)
    with pytest.raises(InvalidParameterError, match="tau"):
        WengLinConfig(tau=-1.0)
    with pytest.raises(ValueError, match="sigma"):
        WengLinRating(25.0, 0.0)
