"""Typed errors of the rating maths, and the small input checks that raise them.

Every error is a `ValueError`: each one means the caller passed numbers that cannot be rated, so
callers that only care about "bad input" can catch `ValueError` or `RatingError` alike.
"""

from __future__ import annotations

import math


class RatingError(ValueError):
    """Base of every error raised by `arena.ratings`."""


class InvalidParameterError(RatingError):
    """A system parameter (K, tau, a threshold, a confidence level...) is out of range."""


class InvalidKFactorError(InvalidParameterError):
    """The Elo K factor is not a positive finite number."""


class InvalidRatingError(RatingError):
    """A rating, rating deviation or volatility is not finite, or not positive where it must be."""


class InvalidResultError(RatingError):
    """A game result cannot be rated: score outside [0, 1], or an entrant playing itself."""


class InsufficientDataError(RatingError):
    """There is not enough data to fit anything (no games, fewer than two entrants)."""


class ConvergenceError(RatingError):
    """An iterative solver did not converge; with valid input this indicates a bug."""


class LinearAlgebraError(RatingError):
    """A matrix or vector has the wrong shape for the requested operation."""


class NotPositiveDefiniteError(LinearAlgebraError):
    """The matrix is not symmetric positive definite to working precision."""


def require_finite(value: float, what: str) -> float:
    """Return `value` as a float, or raise `InvalidRatingError` if it is NaN or infinite."""
    value = float(value)
    if not math.isfinite(value):
        raise InvalidRatingError(f"{what} must be finite, got {value!r}")
    return value


def require_positive(value: float, what: str) -> float:
    """Return `value` as a float, or raise `InvalidRatingError` unless it is finite and > 0."""
    value = require_finite(value, what)
    if value <= 0.0:
        raise InvalidRatingError(f"{what} must be positive, got {value!r}")
    return value


def require_score(score: float) -> float:
    """Return `score` as a float, or raise `InvalidResultError` unless 0 <= score <= 1.

    Usual scores are 1 (win), 0.5 (draw) and 0 (loss); any value in between is accepted so that
    callers may rate partial results, but anything outside is surely a unit mistake (pair points,
    raw card points) and is rejected.
    """
    score = float(score)
    if not 0.0 <= score <= 1.0:  # also rejects NaN
        raise InvalidResultError(f"score must be between 0 and 1, got {score!r}")
    return score
