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

from arena.ratings.errors import (
    ConvergenceError,
    InsufficientDataError,
    InvalidParameterError,
    InvalidResultError,
    require_finite,
    require_score,
)
from arena.ratings.linalg import Matrix, Vector, cholesky, cholesky_inverse_diagonal, cholesky_solve

ELO_PER_NATURAL_UNIT = 400.0 / math.log(10.0)
_STEP_TOLERANCE = 1e-10  # natural units, ~2e-8 Elo
_MAX_NEWTON_STEPS = 100
_ROUNDING_SLACK = 1e-10  # relative; sums of many log-likelihood terms are not exact


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


@dataclass(frozen=True, slots=True)
class _Term:
    """`games` observations of logistic(sum of sign * x[index]) with total score `score`.

    Real games between the same seats are pooled into one term, and prior draws are terms too,
    so the objective and its derivatives are one loop over terms.
    """

    index: tuple[int, ...]
    sign: tuple[float, ...]
    games: float
    score: float


def _log_sigmoid(z: float) -> float:
    return -math.log1p(math.exp(-z)) if z >= 0.0 else z - math.log1p(math.exp(z))


def _sigmoid(z: float) -> float:
    if z >= 0.0:
        return 1.0 / (1.0 + math.exp(-z))
    ez = math.exp(z)
    return ez / (1.0 + ez)


def _linear(term: _Term, x: Sequence[float]) -> float:
    return sum(s * x[i] for i, s in zip(term.index, term.sign, strict=True))


def _objective(terms: Sequence[_Term], x: Sequence[float]) -> float:
    total = 0.0
    for term in terms:
        z = _linear(term, x)
        total += term.score * _log_sigmoid(z) + (term.games - term.score) * _log_sigmoid(-z)
    return total


def _derivatives(terms: Sequence[_Term], x: Sequence[float]) -> tuple[Vector, Matrix]:
    """Gradient of the log-posterior and the observed information (minus its Hessian)."""
    size = len(x)
    gradient = [0.0] * size
    information = [[0.0] * size for _ in range(size)]
    for term in terms:
        p = _sigmoid(_linear(term, x))
        residual = term.score - term.games * p
        weight = term.games * p * (1.0 - p)
        for i, si in zip(term.index, term.sign, strict=True):
            gradient[i] += si * residual
            row = information[i]
            for j, sj in zip(term.index, term.sign, strict=True):
                row[j] += si * sj * weight
    return gradient, information


def _maximise(terms: Sequence[_Term], size: int) -> tuple[Vector, Matrix, int]:
    """Damped Newton ascent; returns the optimum, its information matrix and the step count."""
    x = [0.0] * size
    value = _objective(terms, x)
    for iteration in range(1, _MAX_NEWTON_STEPS + 1):
        gradient, information = _derivatives(terms, x)
        step = cholesky_solve(cholesky(information), gradient)
        scale = 1.0
        while True:
            candidate = [xi + scale * si for xi, si in zip(x, step, strict=True)]
            candidate_value = _objective(terms, candidate)
            moved = scale * max(map(abs, step))
            # A Newton step of a concave function ascends for a small enough scale. Near the
            # optimum the gain drops below the rounding error of the sum, so a "loss" that small
            # is accepted: that keeps full, quadratically convergent steps to the end.
            slack = _ROUNDING_SLACK * (1.0 + abs(value))
            if candidate_value >= value - slack or moved <= _STEP_TOLERANCE:
                break
            scale /= 2.0
        x, value = candidate, candidate_value
        if moved <= _STEP_TOLERANCE:
            return x, _derivatives(terms, x)[1], iteration
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
    seat = (n,) if seat_advantage else ()  # h is the last parameter, if any
    signs = (1.0, -1.0, 1.0) if seat_advantage else (1.0, -1.0)
    terms = [
        _Term((position[a], position[b], *seat), signs, cell[0], cell[1])
        for (a, b), cell in pooled.items()
    ]
    # The prior draws: against a reference at 0 for each theta, between equals for h.
    terms += [_Term((i,), (1.0,), prior_draws, prior_draws / 2.0) for i in range(n + len(seat))]
    x, information, iterations = _maximise(terms, n + len(seat))

    lower = cholesky(information)
    variance = cholesky_inverse_diagonal(lower)
    estimates = _estimates(names, played, x, lower, variance, z, mean_rating)
    advantage = half_width = 0.0
    if seat_advantage:
        advantage = ELO_PER_NATURAL_UNIT * x[n]
        half_width = z * ELO_PER_NATURAL_UNIT * math.sqrt(variance[n])
    return BTFit(
        estimates=estimates,
        seat_advantage=advantage,
        seat_advantage_low=advantage - half_width,
        seat_advantage_high=advantage + half_width,
        games=round(sum(cell[0] for cell in pooled.values())),
        confidence=confidence,
        iterations=iterations,
    )


def _estimates(
    names: Sequence[str],
    played: dict[str, int],
    x: Sequence[float],
    lower: Matrix,
    variance: Sequence[float],
    z: float,
    mean_rating: float,
) -> tuple[BTEstimate, ...]:
    """Ratings relative to the field mean, with intervals from the covariance of those contrasts."""
    n = len(names)
    # Var(theta_i - mean) = S_ii - 2 (S 1)_i / n + 1^T S 1 / n^2, where 1 covers thetas only.
    row_sums = cholesky_solve(lower, [1.0] * n + [0.0] * (len(x) - n))
    total = sum(row_sums[:n])
    centre = sum(x[:n]) / n
    estimates = []
    for i, name in enumerate(names):
        spread = variance[i] - 2.0 * row_sums[i] / n + total / (n * n)
        rating = mean_rating + ELO_PER_NATURAL_UNIT * (x[i] - centre)
        half = z * ELO_PER_NATURAL_UNIT * math.sqrt(max(spread, 0.0))  # clamp rounding below 0
        estimates.append(BTEstimate(name, rating, rating - half, rating + half, played[name]))
    estimates.sort(key=lambda e: (-e.rating, e.entrant))
    return tuple(estimates)
