"""Elo: expected score, period and two-player updates, K validation."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.ratings import (
    ELO_INITIAL_RATING,
    EloRating,
    InvalidKFactorError,
    InvalidRatingError,
    InvalidResultError,
    RatingError,
    elo_difference,
    elo_rate_game,
    elo_rate_period,
    expected_score,
)

ratings = st.floats(min_value=0.0, max_value=3500.0)
k_factors = st.floats(min_value=0.5, max_value=100.0)
scores = st.sampled_from([0.0, 0.5, 1.0])


def test_elo_new_player_starts_at_1500() -> None:
    assert EloRating().rating == 1500.0 == ELO_INITIAL_RATING
    assert EloRating().games == 0


def test_expected_score_equal_ratings_is_half() -> None:
    assert expected_score(1732.0, 1732.0) == 0.5


def test_expected_score_400_points_means_ten_to_one() -> None:
    assert expected_score(1900.0, 1500.0) == pytest.approx(10.0 / 11.0)
    assert expected_score(1500.0, 1900.0) == pytest.approx(1.0 / 11.0)


@given(ratings, ratings)
def test_expected_score_complements_sum_to_one(a: float, b: float) -> None:
    assert expected_score(a, b) + expected_score(b, a) == pytest.approx(1.0)


def test_elo_rate_period_textbook_example() -> None:
    # 1613 vs 1609, 1477, 1388, 1586, 1720 scoring 0, 1/2, 1, 1, 0: E = 2.867, K = 32 -> 1601.
    opponents = [1609.0, 1477.0, 1388.0, 1586.0, 1720.0]
    results = list(zip(opponents, [0.0, 0.5, 1.0, 1.0, 0.0], strict=True))
    assert sum(expected_score(1613.0, o) for o in opponents) == pytest.approx(2.867, abs=5e-4)
    updated = elo_rate_period(EloRating(1613.0, games=7), results, k=32.0)
    assert round(updated.rating) == 1601
    assert updated.games == 12


def test_elo_rate_period_without_games_changes_nothing() -> None:
    assert elo_rate_period(EloRating(1620.0, 3), []) == EloRating(1620.0, 3)


def test_elo_rate_game_win_against_equal_gains_half_k() -> None:
    winner, loser = elo_rate_game(EloRating(), EloRating(), 1.0, k=20.0)
    assert winner.rating == pytest.approx(1510.0)
    assert loser.rating == pytest.approx(1490.0)
    assert winner.games == loser.games == 1


def test_elo_rate_game_draw_pulls_ratings_together() -> None:
    strong, weak = elo_rate_game(EloRating(1800.0), EloRating(1400.0), 0.5, k=32.0)
    assert strong.rating < 1800.0
    assert weak.rating > 1400.0


@given(ratings, ratings, scores, k_factors)
def test_elo_rate_game_conserves_rating_sum(a: float, b: float, score: float, k: float) -> None:
    new_a, new_b = elo_rate_game(EloRating(a), EloRating(b), score, k)
    assert new_a.rating + new_b.rating == pytest.approx(a + b, abs=1e-9)
    assert abs(new_a.rating - a) <= k


@given(ratings, ratings, scores, k_factors)
def test_elo_rate_game_is_symmetric_in_the_players(
    a: float, b: float, score: float, k: float
) -> None:
    new_a, new_b = elo_rate_game(EloRating(a), EloRating(b), score, k)
    swapped_b, swapped_a = elo_rate_game(EloRating(b), EloRating(a), 1.0 - score, k)
    assert (new_a, new_b) == (swapped_a, swapped_b)


@given(ratings, ratings, k_factors)
def test_elo_rate_game_better_result_never_rates_lower(a: float, b: float, k: float) -> None:
    after = [elo_rate_game(EloRating(a), EloRating(b), s, k)[0].rating for s in (0.0, 0.5, 1.0)]
    assert after[0] < after[1] < after[2]


@pytest.mark.parametrize("k", [0.0, -16.0, math.nan, math.inf])
def test_elo_rate_game_rejects_non_positive_k(k: float) -> None:
    with pytest.raises(InvalidKFactorError):
        elo_rate_game(EloRating(), EloRating(), 1.0, k=k)
    with pytest.raises(ValueError):  # the documented base class
        elo_rate_period(EloRating(), [(1500.0, 1.0)], k=k)


def test_elo_rate_period_rejects_bad_k_even_without_games() -> None:
    with pytest.raises(InvalidKFactorError):
        elo_rate_period(EloRating(), [], k=-1.0)


@pytest.mark.parametrize("score", [-0.5, 1.5, 2.0, math.nan])
def test_elo_rate_game_rejects_scores_outside_zero_one(score: float) -> None:
    with pytest.raises(InvalidResultError):
        elo_rate_game(EloRating(), EloRating(), score)


def test_elo_rating_rejects_non_finite_values() -> None:
    with pytest.raises(InvalidRatingError):
        EloRating(math.inf)
    with pytest.raises(InvalidRatingError):
        EloRating(1500.0, games=-1)
    with pytest.raises(RatingError):
        elo_rate_period(EloRating(), [(math.nan, 1.0)])


@given(st.floats(min_value=-1000.0, max_value=1000.0))
def test_elo_difference_inverts_the_expected_score(gap: float) -> None:
    assert elo_difference(expected_score(gap, 0.0)) == pytest.approx(gap, abs=1e-6)


def test_elo_difference_is_infinite_at_a_score_of_nought_or_one() -> None:
    assert (elo_difference(0.0), elo_difference(0.5), elo_difference(1.0)) == (
        -math.inf, 0.0, math.inf,
    )  # fmt: skip
