"""Pentanomial statistics and the GSPRT for comparing bot versions over duplicate pairs."""

from __future__ import annotations

import math
import random
from itertools import accumulate

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.ratings import (
    InsufficientDataError,
    InvalidParameterError,
    InvalidResultError,
    pair_elo,
    pair_normalized_elo,
    pentanomial,
    sprt_bounds,
    sprt_llr,
)

# Pair-score distribution for the coverage checks: P(0), P(0.5), ..., P(2).
PAIR_PROBABILITIES = (0.05, 0.2, 0.4, 0.25, 0.1)
PAIR_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)


def _draw_pairs(rng: random.Random, n: int) -> list[float]:
    return [_draw_pair(rng.random()) for _ in range(n)]


def _draw_pair(u: float) -> float:
    for points, cumulative in zip(PAIR_POINTS, accumulate(PAIR_PROBABILITIES), strict=True):
        if u < cumulative:
            return points
    return PAIR_POINTS[-1]  # u within rounding of 1


def _true_moments() -> tuple[float, float]:
    mean = sum(p * s / 2 for p, s in zip(PAIR_PROBABILITIES, PAIR_POINTS, strict=True))
    var = sum(p * (s / 2 - mean) ** 2 for p, s in zip(PAIR_PROBABILITIES, PAIR_POINTS, strict=True))
    return mean, var


# LLRs recomputed independently with fishtest's LLRcalc algorithm.
@pytest.mark.parametrize(
    ("counts", "logistic_llr", "normalized_llr"),
    [
        ((4063, 8620, 4307), 2.991, 1.720),
        ((500, 2300, 4400, 2450, 550), 3.187, 1.835),
        ((100, 1200, 3100, 1300, 150), 4.325, 1.914),
    ],
)
def test_sprt_llr_matches_fishtest_vectors(
    counts: tuple[int, ...], logistic_llr: float, normalized_llr: float
) -> None:
    assert sprt_llr(counts, 0.0, 3.0, normalized=False) == pytest.approx(logistic_llr, abs=1e-3)
    assert sprt_llr(counts, 0.0, 2.0) == pytest.approx(normalized_llr, abs=1e-3)


@pytest.mark.parametrize("normalized", [False, True])
def test_sprt_llr_mirrors_when_the_versions_swap(normalized: bool) -> None:
    counts = (120, 900, 2000, 1100, 160)
    mirrored = tuple(reversed(counts))
    forward = sprt_llr(counts, -1.0, 4.0, normalized=normalized)
    assert sprt_llr(mirrored, -4.0, 1.0, normalized=normalized) == pytest.approx(-forward)


def test_sprt_llr_favours_the_hypothesis_the_data_resembles() -> None:
    even = (300, 2000, 4000, 2000, 300)  # mean exactly 1/2: Elo 0
    assert sprt_llr(even, 0.0, 5.0) < 0.0 < sprt_llr(even, -5.0, 0.0)
    stronger = (300, 2000, 4000, 2000, 400)  # one more swept pair in every hundred
    assert sprt_llr(even, 0.0, 5.0) < sprt_llr(stronger, 0.0, 5.0)


@given(
    st.one_of(
        st.lists(st.integers(0, 500), min_size=3, max_size=3),
        st.lists(st.integers(0, 500), min_size=5, max_size=5),
    ).filter(any),
    st.floats(-100.0, 100.0),
    st.floats(0.5, 50.0),
    st.booleans(),
)
def test_sprt_llr_is_finite_and_mirrors_for_any_counts(
    counts: list[int], elo0: float, width: float, normalized: bool
) -> None:
    # Hypotheses far from the data and empty cells are where a naive MLE iteration breaks down.
    llr = sprt_llr(counts, elo0, elo0 + width, normalized=normalized)
    assert math.isfinite(llr)
    mirrored = sprt_llr(counts[::-1], -elo0 - width, -elo0, normalized=normalized)
    assert mirrored == pytest.approx(-llr, rel=1e-6, abs=1e-6)


def test_sprt_llr_survives_empty_cells() -> None:
    assert math.isfinite(sprt_llr((0, 10, 30, 15, 0), 0.0, 5.0))


def test_sprt_bounds_for_five_percent_errors() -> None:
    lower, upper = sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(-2.944, abs=1e-3)
    assert upper == pytest.approx(2.944, abs=1e-3)
    assert sprt_bounds(0.05, 0.1)[0] == pytest.approx(math.log(0.1 / 0.95))


def test_pentanomial_counts_pair_scores() -> None:
    assert pentanomial([2.0, 1.0, 1.0, 0.5, 0.0, 1.5, 1.0]) == (1, 1, 3, 1, 1)
    assert pentanomial([]) == (0, 0, 0, 0, 0)


@pytest.mark.parametrize("score", [0.25, 3.0, -0.5, math.nan])
def test_pentanomial_rejects_impossible_pair_scores(score: float) -> None:
    with pytest.raises(InvalidResultError):
        pentanomial([1.0, score])


def test_pair_elo_known_value() -> None:
    # Three pairs swept and one lost: 3/4 of the points, 400 log10(3) Elo.
    estimate = pair_elo([2.0, 2.0, 2.0, 0.0])
    assert estimate.elo == pytest.approx(400.0 * math.log10(3.0))
    assert estimate.low < estimate.elo < estimate.high
    assert estimate.samples == 4


def test_pair_elo_all_split_pairs_is_exactly_even() -> None:
    estimate = pair_elo([1.0] * 50)
    assert (estimate.elo, estimate.low, estimate.high) == (0.0, 0.0, 0.0)


def test_pair_elo_interval_is_infinite_at_the_edge() -> None:
    assert pair_elo([2.0, 2.0, 1.5]).high == math.inf


def test_pair_elo_interval_narrows_with_more_pairs() -> None:
    rng = random.Random(5)
    few, many = pair_elo(_draw_pairs(rng, 200)), pair_elo(_draw_pairs(rng, 3200))
    assert many.high - many.low < 0.35 * (few.high - few.low)  # 1/sqrt(16) = 0.25 expected


def test_pair_elo_intervals_are_calibrated() -> None:
    mean, _ = _true_moments()
    true_elo = -400.0 * math.log10(1.0 / mean - 1.0)
    rng = random.Random(2026)
    estimates = [pair_elo(_draw_pairs(rng, 400)) for _ in range(300)]
    covered = sum(e.low <= true_elo <= e.high for e in estimates) / 300
    assert 0.91 <= covered <= 0.985


def test_pair_normalized_elo_intervals_are_calibrated() -> None:
    mean, var = _true_moments()
    true_nelo = (mean - 0.5) / math.sqrt(2.0 * var) * 800.0 / math.log(10.0)
    rng = random.Random(77)
    estimates = [pair_normalized_elo(_draw_pairs(rng, 400)) for _ in range(300)]
    covered = sum(e.low <= true_nelo <= e.high for e in estimates) / 300
    assert 0.91 <= covered <= 0.985
    assert sum(e.elo for e in estimates) / 300 == pytest.approx(true_nelo, abs=2.0)


def test_pair_statistics_reject_degenerate_input() -> None:
    with pytest.raises(InsufficientDataError):
        pair_elo([])
    with pytest.raises(InsufficientDataError):
        pair_normalized_elo([1.0, 1.0, 1.0])  # zero variance: no scale to normalise by
    with pytest.raises(InvalidParameterError):
        pair_elo([1.0, 2.0], confidence=1.5)


@pytest.mark.parametrize(
    ("counts", "elo0", "elo1", "error"),
    [
        ((1, 2, 3, 4, 5), 5.0, 0.0, InvalidParameterError),  # H0 must lie below H1
        ((1, 2, 3, 4), 0.0, 5.0, InvalidResultError),  # neither trinomial nor pentanomial
        ((1, -2, 3), 0.0, 5.0, InvalidResultError),
        ((0, 0, 0), 0.0, 5.0, InsufficientDataError),
        ((1, 2, 3), 0.0, math.inf, InvalidParameterError),
        ((1, 2, 3), math.nan, 5.0, InvalidParameterError),
    ],
)
def test_sprt_llr_rejects_bad_input(
    counts: tuple[int, ...], elo0: float, elo1: float, error: type[Exception]
) -> None:
    with pytest.raises(error):
        sprt_llr(counts, elo0, elo1, normalized=False)
