"""Statistics for comparing two bot versions over duplicate pairs (same deal, seats swapped).

The two games of a pair are correlated, so the pair is the sample: its score is 0, 0.5, 1, 1.5
or 2 and pairs are counted in a pentanomial [LL, LD+DL, WL+DD+LW, WD+DW, WW]. Trinomial counts
[L, D, W] of independent games are accepted too, so both shapes share one code path: a sample of
k outcomes scores 0, 1/(k-1), ..., 1 per game.

SPRT follows the generalised SPRT of fishtest (Van den Bergh, "support_MLE_multinomial" and
"normalized_elo_practical"): LLR = N * E[log p1 / p0], where p0 and p1 are the maximum-likelihood
multinomials whose mean score (logistic Elo) or normalised t-value (normalised Elo) matches each
hypothesis. Other tools (OpenBench, cutechess) use other LLR formulas; do not mix them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

from arena.ratings.elo import elo_difference
from arena.ratings.errors import (
    ConvergenceError,
    InsufficientDataError,
    InvalidParameterError,
    InvalidResultError,
)

PAIR_SCORES = (0.0, 0.5, 1.0, 1.5, 2.0)
NORMALIZED_ELO_UNIT = 800.0 / math.log(10.0)  # nElo = t * 800 / ln 10
_EMPTY_CELL = 1e-3  # a zero count would make the MLE support degenerate; fishtest uses 1e-3
_MAX_FIXED_POINT_STEPS = 200
# Bisection leaves ~1e-13 jitter in tilted cells that hold only the 1e-3 padding, so asking for
# more would never stop. Real cells hold at least 1/N, so the LLR moves by at most ~1e-9 * N.
_FIXED_POINT_TOLERANCE = 1e-9


@dataclass(frozen=True, slots=True)
class EloInterval:
    """An Elo difference (version A minus version B) with its confidence interval."""

    elo: float
    low: float
    high: float
    samples: int


def pentanomial(pair_scores: Iterable[float]) -> tuple[int, int, int, int, int]:
    """Count pair scores (0, 0.5, 1, 1.5, 2 points per pair) into the five pentanomial cells."""
    counts = [0] * len(PAIR_SCORES)
    for score in pair_scores:
        if score not in PAIR_SCORES:
            raise InvalidResultError(f"a pair scores 0, 0.5, 1, 1.5 or 2 points, got {score!r}")
        counts[PAIR_SCORES.index(score)] += 1
    return counts[0], counts[1], counts[2], counts[3], counts[4]


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's (lower, upper) LLR bounds: accept H0 below the first, H1 above the second."""
    if not (0.0 < alpha < 1.0 and 0.0 < beta < 1.0 and alpha + beta < 1.0):
        raise InvalidParameterError(f"need 0 < alpha, beta and alpha + beta < 1: {alpha}, {beta}")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _outcomes(counts: Sequence[float]) -> tuple[list[float], list[float], float]:
    """Per-game outcome values, empirical frequencies (empty cells padded) and sample count."""
    if len(counts) not in (3, 5) or any(not c >= 0.0 for c in counts):
        raise InvalidResultError("expected 3 (L, D, W) or 5 (pentanomial) non-negative counts")
    if sum(counts) == 0:
        raise InsufficientDataError("no samples")
    padded = [c if c > 0 else _EMPTY_CELL for c in counts]
    total = sum(padded)
    values = [i / (len(counts) - 1) for i in range(len(counts))]
    return values, [c / total for c in padded], total


def _moments(values: Sequence[float], probabilities: Sequence[float]) -> tuple[float, float]:
    mean = sum(p * a for p, a in zip(probabilities, values, strict=True))
    variance = sum(p * (a - mean) ** 2 for p, a in zip(probabilities, values, strict=True))
    return mean, variance


def _tilt(frequencies: Sequence[float], phi: Sequence[float]) -> list[float]:
    """The multinomial closest (max likelihood) to `frequencies` with sum p_i phi_i = 0.

    Lagrange gives p_i = f_i / (1 + theta phi_i); the moment condition is strictly decreasing in
    theta on the interval keeping every p_i positive, so bisection finds it to full precision.
    """
    if not min(phi) < 0.0 < max(phi):
        raise InvalidParameterError("hypothesis lies outside the possible range of scores")

    def moment(theta: float) -> float:
        return sum(f * x / (1.0 + theta * x) for f, x in zip(frequencies, phi, strict=True))

    low, high = -1.0 / max(phi), -1.0 / min(phi)
    for _ in range(200):  # the bracket halves every time: 200 steps exhaust double precision
        middle = (low + high) / 2.0
        if middle in (low, high):
            break
        if moment(middle) > 0.0:
            low = middle
        else:
            high = middle
    theta = (low + high) / 2.0
    return [f / (1.0 + theta * x) for f, x in zip(frequencies, phi, strict=True)]


def _mle_mean(values: Sequence[float], frequencies: Sequence[float], score: float) -> list[float]:
    return _tilt(frequencies, [a - score for a in values])


def _t_value(values: Sequence[float], probabilities: Sequence[float]) -> float:
    mean, variance = _moments(values, probabilities)
    return (mean - 0.5) / math.sqrt(variance)


def _t_fixed_point(
    values: Sequence[float], frequencies: Sequence[float], t: float, start: Sequence[float]
) -> list[float]:
    """The MLE multinomial with (mean - 1/2) / sd = t, iterating from `start`.

    The constraint's gradient is, up to a constant, phi_i = a_i - 1/2 - t (var + (a_i - mu)^2) /
    (2 sd), whose p-weighted sum is exactly mean - 1/2 - t sd: so the optimum is the tilt of the
    frequencies along phi evaluated at the optimum's own mean and sd.
    """
    p = list(start)
    for _ in range(_MAX_FIXED_POINT_STEPS):
        mean, variance = _moments(values, p)
        sd = math.sqrt(variance)
        phi = [a - 0.5 - t * (variance + (a - mean) ** 2) / (2.0 * sd) for a in values]
        updated = _tilt(frequencies, phi)
        if max(abs(x - y) for x, y in zip(updated, p, strict=True)) < _FIXED_POINT_TOLERANCE:
            return updated
        p = updated
    raise ConvergenceError("normalised-Elo MLE did not converge")


def _mle_t_value(values: Sequence[float], frequencies: Sequence[float], t: float) -> list[float]:
    """The MLE multinomial with t-value `t`, by continuation from the data's own t-value.

    At the data's t-value the answer is the data itself; the fixed point converges from a nearby
    start but can wander off from a distant one, so the target moves there in steps that double
    after a success and halve after a failure.
    """
    p, reached = list(frequencies), _t_value(values, frequencies)
    step = t - reached
    while reached != t:
        target = t if abs(t - reached) <= abs(step) else reached + step
        try:
            p = _t_fixed_point(values, frequencies, target, p)
        except (InvalidParameterError, ConvergenceError):
            step /= 2.0
            if abs(step) < 1e-9:
                raise ConvergenceError("normalised-Elo MLE did not converge") from None
            continue
        reached, step = target, 2.0 * step
    return p


def sprt_llr(
    counts: Sequence[float], elo0: float, elo1: float, *, normalized: bool = True
) -> float:
    """Generalised SPRT log-likelihood ratio of H1 (elo1) against H0 (elo0).

    `counts` is a pentanomial (pairs) or a trinomial [L, D, W] (single games). With
    `normalized=True` the bounds are normalised Elo, whose meaning does not depend on the draw
    rate; otherwise logistic Elo.
    """
    if not (math.isfinite(elo0) and math.isfinite(elo1) and elo0 < elo1):
        raise InvalidParameterError(f"need finite elo0 < elo1, got {elo0} and {elo1}")
    values, frequencies, total = _outcomes(counts)
    # A pair's sd is the game sd / sqrt(2), so its t-value is sqrt(2) times the per-game one.
    per_sample = math.sqrt(2.0) if len(counts) == 5 else 1.0
    hypotheses = []
    for elo in (elo0, elo1):
        if normalized:
            t = per_sample * elo / NORMALIZED_ELO_UNIT
            hypotheses.append(_mle_t_value(values, frequencies, t))
        else:
            score = 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))
            hypotheses.append(_mle_mean(values, frequencies, score))
    p0, p1 = hypotheses
    return total * sum(f * math.log(b / a) for f, a, b in zip(frequencies, p0, p1, strict=True))


def _sample_stats(pair_scores: Iterable[float]) -> tuple[float, float, int]:
    counts = pentanomial(pair_scores)
    n = sum(counts)
    if n == 0:
        raise InsufficientDataError("no pairs")
    frequencies = [c / n for c in counts]
    mean, variance = _moments([s / 2.0 for s in PAIR_SCORES], frequencies)
    return mean, variance, n


def _z(confidence: float) -> float:
    if not 0.0 < confidence < 1.0:
        raise InvalidParameterError(f"confidence must be between 0 and 1, got {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def pair_elo(pair_scores: Iterable[float], confidence: float = 0.95) -> EloInterval:
    """Logistic Elo difference from pair scores, with an interval from the pair variance.

    The interval on the mean score is mean +- z * sd / sqrt(pairs), mapped through the Elo curve
    (so it is asymmetric, and infinite when it reaches a score of 0 or 1).
    """
    z = _z(confidence)
    mean, variance, n = _sample_stats(pair_scores)
    half = z * math.sqrt(variance / n)
    return EloInterval(
        elo_difference(mean), elo_difference(mean - half), elo_difference(mean + half), n
    )


def pair_normalized_elo(pair_scores: Iterable[float], confidence: float = 0.95) -> EloInterval:
    """Normalised Elo, (mean - 1/2) / per-game sd * 800 / ln 10, with an interval.

    The per-game sd is sqrt(2) times the pair sd. The interval treats the sd as known, which is
    accurate near nElo = 0, where version comparisons live.
    """
    z = _z(confidence)
    mean, variance, n = _sample_stats(pair_scores)
    if variance == 0.0:
        raise InsufficientDataError("every pair had the same score: normalised Elo is undefined")
    game_sd = math.sqrt(2.0 * variance)
    elo = (mean - 0.5) / game_sd * NORMALIZED_ELO_UNIT
    half = z * math.sqrt(variance / n) / game_sd * NORMALIZED_ELO_UNIT
    return EloInterval(elo, elo - half, elo + half, n)


def alike_pairs_elo(
    score: float, pairs: int, *, normalized: bool, confidence: float = 0.95
) -> EloInterval:
    """The Elo interval when all `pairs` pairs scored `score`: their variance is nil, so the
    intervals above would be nil too (or undefined). Instead, the share q of pairs scoring
    `score` is at least (1 - level) ** (1 / pairs) at each one-sided level (1 - confidence) / 2
    (were it lower, so many alike pairs would be rarer than that); the bounds are the Elo of q
    at `score` with the rest at the worst and the best pair score. The estimate is the Elo of
    the pairs as they are: infinite for pairs all won or all lost, NaN where undefined.
    """
    if score not in PAIR_SCORES or pairs < 1:
        raise InvalidResultError(f"need a pair score of {PAIR_SCORES} and pairs >= 1")
    _z(confidence)  # checks it
    q = ((1.0 - confidence) / 2.0) ** (1.0 / pairs)
    elo = _normalized_elo if normalized else _mean_elo
    at = score / 2.0  # per game
    return EloInterval(
        elo([(at, 1.0)]), elo([(at, q), (0.0, 1.0 - q)]), elo([(at, q), (1.0, 1.0 - q)]), pairs
    )


def _mean_elo(mass: Sequence[tuple[float, float]]) -> float:
    return elo_difference(sum(value * p for value, p in mass)) + 0.0  # never "-0.0"


def _normalized_elo(mass: Sequence[tuple[float, float]]) -> float:
    """Normalised Elo of a pair distribution (values per game); infinite without spread."""
    mean, variance = _moments([v for v, _ in mass], [p for _, p in mass])
    if variance <= 1e-15:
        return math.nan if mean == 0.5 else math.copysign(math.inf, mean - 0.5)
    return (mean - 0.5) / math.sqrt(2.0 * variance) * NORMALIZED_ELO_UNIT
