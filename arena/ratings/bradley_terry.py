"""Bradley-Terry maximum-likelihood ratings for a whole event, with a seat advantage.

Model: the seat-0 player's expected score is logistic(theta_0 - theta_1 + h), with strengths
theta and seat advantage h in natural log-odds; ratings are reported on the Elo scale
(400 * log10 odds, 1 natural unit = 400 / ln 10 ~ 173.7 Elo). A draw counts as half a win
each way, i.e. the log-likelihood of a game is s log p + (1 - s) log(1 - p).

Prior: each entrant gets `prior_draws` virtual draws against a fixed reference of strength 0, and
h gets `prior_draws` virtual draws between two equal players. Without it a perfect (or zero)
score, or one seat winning every game, would send the estimate to infinity; with one virtual
draw the pull toward the middle is worth one game, negligible for anyone with dozens of games.
The prior also makes the objective strictly concave, so damped Newton converges from zero.

Gauge: game outcomes only see differences theta_i - theta_j, so ratings are reported relative to
the field mean, which is anchored at `mean_rating` (1500). Their confidence intervals use the
covariance of those contrasts, C S C^T with C = I - 11^T/n and S the inverse observed
information at the optimum (games plus prior). This is the exact covariance of what is reported,
whatever the prior does to the (unreported) absolute level.

Computation: the games are pooled per seated pair into numpy arrays; each Newton step builds the
dense information matrix with one bincount and solves it with LAPACK, and the covariance comes
from its Cholesky factor, so even a field of a thousand entrants fits quickly enough to be
computed while a page is built (`arena bench web` times the first view, which fits).

Intervals are normal approximations, estimate +- z * standard error. Games are assumed
independent: with many draws they are somewhat conservative (a draw-heavy game varies less than
a coin flip), and for duplicate pairs they ignore the correlation between the two games.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from arena.ratings.errors import (
    ConvergenceError,
    InsufficientDataError,
    InvalidParameterError,
    InvalidResultError,
    NotPositiveDefiniteError,
    require_finite,
    require_score,
)

ELO_PER_NATURAL_UNIT = 400.0 / math.log(10.0)
_STEP_TOLERANCE = 1e-10  # natural units, ~2e-8 Elo
_MAX_NEWTON_STEPS = 100
_ROUNDING_SLACK = 1e-10  # relative; sums of many log-likelihood terms are not exact

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]


class BTGame(NamedTuple):
    """One game: who sat in seat 0, who sat in seat 1, and seat 0's score (1, 0.5 or 0)."""

    seat0: str
    seat1: str
    score: float


@dataclass(frozen=True, slots=True)
class BTEstimate:
    """An entrant's fitted Elo-scale rating with its confidence interval [low, high]."""

    entrant: str
    rating: float
    low: float
    high: float
    games: int


@dataclass(frozen=True, slots=True)
class BTFit:
    """A whole-event fit. `estimates` are best first (ties by entrant id)."""

    estimates: tuple[BTEstimate, ...]
    seat_advantage: float  # Elo points seat 0 gains over seat 1; 0 when not estimated
    seat_advantage_low: float
    seat_advantage_high: float
    games: int
    confidence: float
    iterations: int

    def estimate(self, entrant: str) -> BTEstimate:
        """The estimate for `entrant`; raises `KeyError` if it was not in the fit."""
        for estimate in self.estimates:
            if estimate.entrant == entrant:
                return estimate
        raise KeyError(entrant)

    def caption(self) -> str:
        """What a standings table says about its rating column."""
        return (
            f"rating: Bradley-Terry over {self.games} games, {self.confidence:.0%} interval, "
            f"first seat {round(self.seat_advantage):+d} Elo"
        )


class _Pairs:
    """The pooled games as arrays: one entry per seated pair (seat-0 index, seat-1 index, games,
    seat-0 score), plus the prior, so the objective and its derivatives are array expressions.

    Each pair is an observation of logistic(x[first] - x[second] + h); each parameter (every
    theta and h) gets `prior` virtual draws of logistic(x[i]) against a reference at 0.
    """

    def __init__(
        self,
        first: IntArray,
        second: IntArray,
        counts: FloatArray,
        n: int,
        *,
        prior: float,
        seat: bool,
    ) -> None:
        """`counts` holds each pair's (games, seat-0 score); `n` thetas, then h if `seat`."""
        self.first, self.second = first, second
        self.games, self.score = counts[:, 0], counts[:, 1]
        self.prior = prior
        self.seat = n if seat else None  # h is the last parameter
        self.size = n + seat

    def linear(self, x: FloatArray) -> FloatArray:
        z = x[self.first] - x[self.second]
        return z + x[self.seat] if self.seat is not None else z

    def objective(self, x: FloatArray) -> float:
        z = self.linear(x)
        pairs = self.score @ _log_sigmoid(z) + (self.games - self.score) @ _log_sigmoid(-z)
        prior = self.prior / 2.0 * float(np.sum(_log_sigmoid(x) + _log_sigmoid(-x)))
        return float(pairs) + prior

    def derivatives(self, x: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Gradient of the log-posterior and the observed information (minus its Hessian)."""
        p = _sigmoid(self.linear(x))
        residual = self.score - self.games * p
        weight = self.games * p * (1.0 - p)
        q = _sigmoid(x)  # the prior draws
        gradient = self.prior * (0.5 - q) + self._spread(residual)
        information = np.diag(self.prior * q * (1.0 - q))
        size, first, second = self.size, self.first, self.second
        # Each pair adds w (e_a - e_b + e_h)(e_a - e_b + e_h)^T; bincount sums repeated cells.
        cells = [(first, first, weight), (second, second, weight)]
        cells += [(first, second, -weight), (second, first, -weight)]
        if self.seat is not None:
            h = np.full_like(first, self.seat)
            cells += [(first, h, weight), (h, first, weight), (second, h, -weight)]
            cells += [(h, second, -weight), (h, h, weight)]
        flat = np.concatenate([row * size + column for row, column, _ in cells])
        values = np.concatenate([value for _, _, value in cells])
        information += np.bincount(flat, values, size * size).reshape(size, size)
        return gradient, information

    def _spread(self, residual: FloatArray) -> FloatArray:
        """Sum of each pair's residual times its signs, per parameter."""
        total: FloatArray = np.bincount(self.first, residual, self.size).astype(np.float64)
        total -= np.bincount(self.second, residual, self.size)
        if self.seat is not None:
            total[self.seat] += residual.sum()
        return total


def _log_sigmoid(z: FloatArray) -> FloatArray:
    return -np.logaddexp(0.0, -z)


def _sigmoid(z: FloatArray) -> FloatArray:
    e = np.exp(-np.abs(z))  # never overflows
    return np.where(z >= 0.0, 1.0, e) / (1.0 + e)


def _solve(gradient: FloatArray, information: FloatArray) -> FloatArray:
    try:
        step = np.linalg.solve(information, gradient)
    except np.linalg.LinAlgError:
        raise NotPositiveDefiniteError("Bradley-Terry information matrix is singular") from None
    return np.asarray(step, dtype=np.float64)  # already float64: no copy


def _maximise(pairs: _Pairs) -> tuple[FloatArray, FloatArray, int]:
    """Damped Newton ascent; returns the optimum, its information matrix and the step count."""
    x = np.zeros(pairs.size)
    value = pairs.objective(x)
    for iteration in range(1, _MAX_NEWTON_STEPS + 1):
        step = _solve(*pairs.derivatives(x))
        scale = 1.0
        while True:
            candidate = x + scale * step
            candidate_value = pairs.objective(candidate)
            moved = scale * float(np.max(np.abs(step)))
            # A Newton step of a concave function ascends for a small enough scale. Near the
            # optimum the gain drops below the rounding error of the sum, so a "loss" that small
            # is accepted: that keeps full, quadratically convergent steps to the end.
            slack = _ROUNDING_SLACK * (1.0 + abs(value))
            if candidate_value >= value - slack or moved <= _STEP_TOLERANCE:
                break
            scale /= 2.0
        x, value = candidate, candidate_value
        if moved <= _STEP_TOLERANCE:
            return x, pairs.derivatives(x)[1], iteration
    raise ConvergenceError("Bradley-Terry Newton iteration did not converge")


def _collect(
    games: Iterable[tuple[str, str, float]], entrants: Iterable[str]
) -> tuple[list[str], dict[tuple[str, str], list[float]], dict[str, int]]:
    """Entrant ids (sorted), pooled (games, seat-0 score) per seated pair, games per entrant."""
    pooled: dict[tuple[str, str], list[float]] = {}
    played: dict[str, int] = dict.fromkeys(entrants, 0)
    for seat0, seat1, score in games:
        if seat0 == seat1:
            raise InvalidResultError(f"entrant {seat0!r} cannot play itself")
        cell = pooled.setdefault((seat0, seat1), [0.0, 0.0])
        cell[0] += 1.0
        cell[1] += require_score(score)
        for entrant in (seat0, seat1):
            played[entrant] = played.get(entrant, 0) + 1
    return sorted(played), pooled, played


def _check_parameters(prior_draws: float, confidence: float, mean_rating: float) -> float:
    """Validate the knobs; returns the normal quantile z for the confidence level."""
    if not (math.isfinite(prior_draws) and prior_draws > 0.0):
        raise InvalidParameterError(f"prior_draws must be positive, got {prior_draws!r}")
    if not 0.0 < confidence < 1.0:
        raise InvalidParameterError(f"confidence must be between 0 and 1, got {confidence!r}")
    require_finite(mean_rating, "mean rating")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def fit_bradley_terry(
    games: Iterable[tuple[str, str, float]],
    *,
    entrants: Iterable[str] = (),
    seat_advantage: bool = True,
    prior_draws: float = 1.0,
    confidence: float = 0.95,
    mean_rating: float = 1500.0,
) -> BTFit:
    """Fit strengths (and the seat-0 advantage) to `games`, given as `BTGame`s or plain triples.

    `entrants` adds entrants who may have played no game (they come out near the mean with a wide
    interval). Raises `InsufficientDataError` without games or with fewer than two entrants,
    `InvalidResultError` for a bad score or self-play.
    """
    z = _check_parameters(prior_draws, confidence, mean_rating)
    names, pooled, played = _collect(games, entrants)
    if len(names) < 2:
        raise InsufficientDataError("a rating fit needs at least two entrants")
    if not pooled:
        raise InsufficientDataError("a rating fit needs at least one game")

    n = len(names)
    position = {name: i for i, name in enumerate(names)}
    first = np.array([position[a] for a, _ in pooled], dtype=np.intp)
    second = np.array([position[b] for _, b in pooled], dtype=np.intp)
    counts = np.array(list(pooled.values()), dtype=np.float64)
    pairs = _Pairs(first, second, counts, n, prior=prior_draws, seat=seat_advantage)
    x, information, iterations = _maximise(pairs)

    covariance = _inverse(information)
    variance = np.diag(covariance)
    estimates = _estimates(names, played, x, covariance, z, mean_rating)
    advantage = half_width = 0.0
    if seat_advantage:
        advantage = ELO_PER_NATURAL_UNIT * float(x[n])
        half_width = z * ELO_PER_NATURAL_UNIT * math.sqrt(float(variance[n]))
    return BTFit(
        estimates=estimates,
        seat_advantage=advantage,
        seat_advantage_low=advantage - half_width,
        seat_advantage_high=advantage + half_width,
        games=round(sum(cell[0] for cell in pooled.values())),
        confidence=confidence,
        iterations=iterations,
    )


def _inverse(information: FloatArray) -> FloatArray:
    """The covariance S, inverse of the information, through its Cholesky factor L:
    S = L^-T L^-1. The factorisation is also the check that the optimum is a strict maximum."""
    try:
        lower_inverse = np.linalg.inv(np.linalg.cholesky(information))
    except np.linalg.LinAlgError:
        raise NotPositiveDefiniteError("Bradley-Terry information matrix is singular") from None
    covariance: FloatArray = lower_inverse.T @ lower_inverse
    return covariance


def _estimates(
    names: Sequence[str],
    played: dict[str, int],
    x: FloatArray,
    covariance: FloatArray,
    z: float,
    mean_rating: float,
) -> tuple[BTEstimate, ...]:
    """Ratings relative to the field mean, with intervals from the covariance of those contrasts."""
    n = len(names)
    # Var(theta_i - mean) = S_ii - 2 (S 1)_i / n + 1^T S 1 / n^2, where 1 covers thetas only.
    thetas = covariance[:n, :n]
    row_sums = thetas.sum(axis=1)
    spread = np.diag(thetas) - 2.0 * row_sums / n + row_sums.sum() / (n * n)
    ratings = mean_rating + ELO_PER_NATURAL_UNIT * (x[:n] - x[:n].mean())
    halves = z * ELO_PER_NATURAL_UNIT * np.sqrt(np.maximum(spread, 0.0))  # clamp rounding below 0
    estimates = [
        BTEstimate(name, rating, rating - half, rating + half, played[name])
        for name, rating, half in zip(names, ratings.tolist(), halves.tolist(), strict=True)
    ]
    estimates.sort(key=lambda e: (-e.rating, e.entrant))
    return tuple(estimates)
