"""Weng-Lin ratings (the Plackett-Luce model of openskill) for results of any number of sides.

A side is one player or a team of players (the 4-player Caper team game has two sides of one
entrant each; a table of the Snitch game has three sides). Each side has a rank: 0 is first,
and equal ranks are a tie.

openskill is a pure-Python maths library without I/O, so using it keeps `arena.ratings` pure.
The constants are openskill's defaults written out: a ladder's values must not move because a
later openskill release changed a default (a rebuild would no longer match).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from arena.ratings.errors import (
    InvalidParameterError,
    InvalidRatingError,
    InvalidResultError,
    require_finite,
)

WENG_LIN_MU = 25.0
WENG_LIN_SIGMA = 25.0 / 3.0
WENG_LIN_BETA = 25.0 / 6.0
WENG_LIN_KAPPA = 0.0001
WENG_LIN_TAU = 25.0 / 300.0  # added (in quadrature) to sigma before each result: skill drifts
ORDINAL_Z = 3.0  # ordinal = mu - 3 sigma: 99.7% sure the skill is at least this


@dataclass(frozen=True, slots=True)
class WengLinConfig:
    """The model's constants; fixed per ladder like the Elo K factor."""

    beta: float = WENG_LIN_BETA
    kappa: float = WENG_LIN_KAPPA
    tau: float = WENG_LIN_TAU

    def __post_init__(self) -> None:
        for name in ("beta", "kappa", "tau"):
            value = float(getattr(self, name))
            if not (math.isfinite(value) and (value > 0.0 or (name == "tau" and value == 0.0))):
                raise InvalidParameterError(f"Weng-Lin {name} must be positive, got {value!r}")
            object.__setattr__(self, name, value)


DEFAULT_WENG_LIN = WengLinConfig()


@dataclass(frozen=True, slots=True)
class WengLinRating:
    mu: float = WENG_LIN_MU
    sigma: float = WENG_LIN_SIGMA

    def __post_init__(self) -> None:
        require_finite(self.mu, "Weng-Lin mu")
        if not (math.isfinite(self.sigma) and self.sigma > 0.0):
            raise InvalidRatingError(f"Weng-Lin sigma must be positive, got {self.sigma!r}")

    @property
    def ordinal(self) -> float:
        """The conservative skill estimate leaderboards sort by."""
        return self.mu - ORDINAL_Z * self.sigma


def placement_ranks(scores: Sequence[float]) -> tuple[int, ...]:
    """Each side's rank (0 = first) from its score, the higher the better; equal scores tie."""
    return tuple(sum(other > score for other in scores) for score in scores)


@functools.lru_cache(maxsize=16)
def _model(config: WengLinConfig) -> PlackettLuce:
    # openskill ignores a `tau` of 0 passed to rate() (it falls back to the model's): set it here.
    return PlackettLuce(beta=config.beta, kappa=config.kappa, tau=config.tau)


def weng_lin_rate(
    teams: Sequence[Sequence[WengLinRating]],
    ranks: Sequence[int],
    config: WengLinConfig = DEFAULT_WENG_LIN,
) -> list[list[WengLinRating]]:
    """Every player's rating after one result between `teams`, placed by `ranks`."""
    if len(teams) < 2 or any(not team for team in teams):
        raise InvalidResultError("a result needs at least two sides, none of them empty")
    if len(ranks) != len(teams):
        raise InvalidResultError(f"{len(teams)} sides but {len(ranks)} ranks")
    model = _model(config)
    # A fresh openskill rating per seat: rate() deep-copies its input, and one object listed
    # twice would come back as one shared (and doubly updated) copy.
    rated = model.rate(
        [[PlackettLuceRating(r.mu, r.sigma) for r in team] for team in teams],
        ranks=[float(rank) for rank in ranks],
    )
    return [[WengLinRating(p.mu, p.sigma) for p in team] for team in rated]
