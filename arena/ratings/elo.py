"""Elo ratings: the logistic expected score on the 400-point scale and the K-factor update.

All games of a rating period are scored against the player's rating at the start of the period,
so the order of results inside a period does not matter.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from arena.ratings.errors import (
    InvalidKFactorError,
    InvalidRatingError,
    require_finite,
    require_score,
)

ELO_INITIAL_RATING = 1500.0
ELO_SCALE = 400.0  # a 400-point gap means 10:1 odds
ELO_DEFAULT_K = 32.0


@dataclass(frozen=True, slots=True)
class EloRating:
    """A player's Elo rating and the number of rated games behind it (for K schedules)."""

    rating: float = ELO_INITIAL_RATING
    games: int = 0

    def __post_init__(self) -> None:
        # Coerce ints to floats so equal ratings compare and serialise identically.
        object.__setattr__(self, "rating", require_finite(self.rating, "Elo rating"))
        if self.games < 0:
            raise InvalidRatingError(f"games must be >= 0, got {self.games}")


def check_k_factor(k: float) -> float:
    """Return `k` as a float, or raise `InvalidKFactorError` unless it is positive and finite."""
    k = float(k)
    # A zero K freezes ratings and a negative one rewards losing: both are configuration bugs.
    if not (math.isfinite(k) and k > 0.0):
        raise InvalidKFactorError(f"K factor must be a positive finite number, got {k!r}")
    return k


def expected_score(rating: float, opponent_rating: float) -> float:
    """Expected score (win = 1, draw = 1/2) of `rating` against `opponent_rating`."""
    return 1.0 / (1.0 + math.pow(10.0, (opponent_rating - rating) / ELO_SCALE))


def elo_difference(score: float) -> float:
    """The Elo difference whose expected score is `score` (the inverse of `expected_score`):
    infinite at a score of 0 or 1."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -ELO_SCALE * math.log10(1.0 / score - 1.0)


def elo_rate_period(
    player: EloRating, results: Iterable[tuple[float, float]], k: float = ELO_DEFAULT_K
) -> EloRating:
    """Rate a period of games given as (opponent rating, score) pairs.

    Each game moves the rating by K * (score - expected score), all measured from the rating the
    player had when the period started.
    """
    k = check_k_factor(k)
    change = 0.0
    played = 0
    for opponent_rating, score in results:
        opponent_rating = require_finite(opponent_rating, "opponent rating")
        change += k * (require_score(score) - expected_score(player.rating, opponent_rating))
        played += 1
    return EloRating(player.rating + change, player.games + played)


def elo_rate_game(
    a: EloRating, b: EloRating, score_a: float, k: float = ELO_DEFAULT_K
) -> tuple[EloRating, EloRating]:
    """Update both players after one game; `score_a` is A's score (B scores 1 - score_a).

    Both updates use the pre-game ratings, so the points A gains are exactly the points B loses.
    """
    score_a = require_score(score_a)
    return (
        elo_rate_period(a, [(b.rating, score_a)], k),
        elo_rate_period(b, [(a.rating, 1.0 - score_a)], k),
    )
