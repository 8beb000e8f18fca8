"""Glicko-2 ratings, after Glickman's "Example of the Glicko-2 system" (glicko.net, glicko2.pdf).

Games of one rating period are treated as simultaneous: every game is scored against the
opponents' pre-period values. Step numbers in comments refer to the paper.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from arena.ratings.errors import (
    ConvergenceError,
    InvalidParameterError,
    require_finite,
    require_positive,
    require_score,
)

GLICKO2_INITIAL_RATING = 1500.0
GLICKO2_INITIAL_RD = 350.0
GLICKO2_INITIAL_VOLATILITY = 0.06
GLICKO2_DEFAULT_TAU = 0.5
GLICKO2_TOLERANCE = 1e-6
PROVISIONAL_RD = 110.0
# The paper's 173.7178: converts the Elo-like scale to the logistic (natural-log-odds) scale.
GLICKO2_SCALE = 400.0 / math.log(10.0)
_MAX_ILLINOIS_STEPS = 200


@dataclass(frozen=True, slots=True)
class Glicko2Rating:
    """Rating and deviation on the familiar 1500-centred scale, plus the volatility sigma."""

    rating: float = GLICKO2_INITIAL_RATING
    rd: float = GLICKO2_INITIAL_RD
    volatility: float = GLICKO2_INITIAL_VOLATILITY

    def __post_init__(self) -> None:
        # Coerce ints to floats so equal ratings compare and serialise identically.
        object.__setattr__(self, "rating", require_finite(self.rating, "Glicko-2 rating"))
        object.__setattr__(self, "rd", require_positive(self.rd, "rating deviation"))
        object.__setattr__(self, "volatility", require_positive(self.volatility, "volatility"))


@dataclass(frozen=True, slots=True)
class Glicko2Config:
    """System constants.

    `tau` limits how fast volatility may change (the paper suggests 0.3 to 1.2). `max_rd` caps the
    deviation so a long-idle player is never less certain than a newcomer (Glicko-1 caps the same
    way; use `math.inf` for the paper's uncapped behaviour).
    """

    tau: float = GLICKO2_DEFAULT_TAU
    tolerance: float = GLICKO2_TOLERANCE
    max_rd: float = GLICKO2_INITIAL_RD

    def __post_init__(self) -> None:
        for name in ("tau", "tolerance", "max_rd"):
            value = float(getattr(self, name))
            if math.isnan(value) or value <= 0.0 or (name != "max_rd" and math.isinf(value)):
                raise InvalidParameterError(f"Glicko-2 {name} must be positive, got {value!r}")


DEFAULT_GLICKO2 = Glicko2Config()


class Glicko2Game(NamedTuple):
    """One game of a rating period, seen from the player being rated."""

    opponent_rating: float
    opponent_rd: float
    score: float  # 1 win, 0.5 draw, 0 loss


def is_provisional(rating: Glicko2Rating, threshold: float = PROVISIONAL_RD) -> bool:
    """True while the deviation is above `threshold`: the rating is still a rough guess."""
    return rating.rd > threshold


def _g(phi: float) -> float:
    """Step 3: discounts a game by the opponent's uncertainty."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, opponent_mu: float, opponent_phi: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(opponent_phi) * (mu - opponent_mu)))


def _new_volatility(
    sigma: float, phi: float, v: float, delta: float, config: Glicko2Config
) -> float:
    """Step 5: solve f(x) = 0 for x = ln(sigma'^2) by the Illinois algorithm (Glickman's 5.4)."""
    a = math.log(sigma * sigma)
    tau2 = config.tau * config.tau
    excess = delta * delta - phi * phi - v

    def f(x: float) -> float:
        ex = math.exp(x)
        denominator = 2.0 * (phi * phi + v + ex) ** 2
        return ex * (excess - ex) / denominator - (x - a) / tau2

    big_a = a
    if excess > 0.0:
        big_b = math.log(excess)
    else:
        k = 1
        while f(a - k * config.tau) < 0.0:  # f grows without bound as x falls, so this ends
            k += 1
        big_b = a - k * config.tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(_MAX_ILLINOIS_STEPS):
        if abs(big_b - big_a) <= config.tolerance:
            return math.exp(big_a / 2.0)
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        # "<= 0" (not "< 0"): with an exact root f_c == 0 the bracket must still collapse.
        if f_c * f_b <= 0.0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0  # the Illinois twist: stops one end of the bracket from sticking
        big_b, f_b = big_c, f_c
    raise ConvergenceError("Glicko-2 volatility iteration did not converge")


def glicko2_rate_period(
    player: Glicko2Rating,
    games: Iterable[tuple[float, float, float]],
    config: Glicko2Config = DEFAULT_GLICKO2,
) -> Glicko2Rating:
    """Rate one period of games given as (opponent rating, opponent RD, score) triples.

    A player with no games keeps rating and volatility; only the deviation grows (step 6).
    """
    mu = (player.rating - GLICKO2_INITIAL_RATING) / GLICKO2_SCALE  # step 2
    phi = player.rd / GLICKO2_SCALE
    sigma = player.volatility

    information = 0.0  # 1 / v of step 3
    improvement = 0.0  # delta / v of step 4
    for opponent_rating, opponent_rd, score in games:
        opponent_rating = require_finite(opponent_rating, "opponent rating")
        opponent_mu = (opponent_rating - GLICKO2_INITIAL_RATING) / GLICKO2_SCALE
        opponent_phi = require_positive(opponent_rd, "opponent RD") / GLICKO2_SCALE
        expected = _expected(mu, opponent_mu, opponent_phi)
        g = _g(opponent_phi)
        information += g * g * expected * (1.0 - expected)
        improvement += g * (require_score(score) - expected)

    # No games, or only games so lopsided that the expected score rounds to 0 or 1: nothing learnt.
    if information == 0.0:
        grown = GLICKO2_SCALE * math.sqrt(phi * phi + sigma * sigma)
        return Glicko2Rating(player.rating, min(grown, config.max_rd), sigma)

    v = 1.0 / information
    new_sigma = _new_volatility(sigma, phi, v, v * improvement, config)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)  # step 6
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + information)  # step 7
    new_mu = mu + new_phi * new_phi * improvement
    return Glicko2Rating(
        rating=GLICKO2_INITIAL_RATING + GLICKO2_SCALE * new_mu,  # step 8
        rd=min(GLICKO2_SCALE * new_phi, config.max_rd),
        volatility=new_sigma,
    )


def glicko2_rate_game(
    a: Glicko2Rating, b: Glicko2Rating, score_a: float, config: Glicko2Config = DEFAULT_GLICKO2
) -> tuple[Glicko2Rating, Glicko2Rating]:
    """Update both players after one game, treated as a one-game rating period for each.

    Each side is rated against the other's pre-game values, so the order of the two updates does
    not matter. Unlike Elo the changes are not equal and opposite: the less certain player moves
    more.
    """
    score_a = require_score(score_a)
    return (
        glicko2_rate_period(a, [(b.rating, b.rd, score_a)], config),
        glicko2_rate_period(b, [(a.rating, a.rd, 1.0 - score_a)], config),
    )
