"""Rated results on a ladder: Elo and Glicko-2 updated together from the pre-period values.

`rate_period` is the only function that turns results into new ratings. The live path (a Redis
transaction) and `arena ladder rebuild` (a replay of the stored results log) both call it, so a
rebuild reproduces the live values bit for bit as long as it replays the results in the same order.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from arena.ratings.elo import (
    ELO_DEFAULT_K,
    ELO_INITIAL_RATING,
    EloRating,
    check_k_factor,
    elo_rate_period,
)
from arena.ratings.errors import InvalidParameterError, InvalidResultError, require_score
from arena.ratings.glicko2 import (
    DEFAULT_GLICKO2,
    GLICKO2_INITIAL_RATING,
    GLICKO2_INITIAL_RD,
    GLICKO2_INITIAL_VOLATILITY,
    PROVISIONAL_RD,
    Glicko2Config,
    Glicko2Rating,
    glicko2_rate_period,
)


@dataclass(frozen=True, slots=True)
class LadderParams:
    """A ladder's rating constants; fixed when the ladder is created, or a rebuild would differ."""

    k: float = ELO_DEFAULT_K
    glicko: Glicko2Config = field(default_factory=lambda: DEFAULT_GLICKO2)
    provisional_rd: float = PROVISIONAL_RD

    def __post_init__(self) -> None:
        object.__setattr__(self, "k", check_k_factor(self.k))
        rd = float(self.provisional_rd)
        if not (math.isfinite(rd) and rd > 0.0):
            raise InvalidParameterError(f"provisional RD threshold must be positive, got {rd!r}")
        object.__setattr__(self, "provisional_rd", rd)


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's ratings on one ladder and the tally of results behind them."""

    elo: float = ELO_INITIAL_RATING
    rating: float = GLICKO2_INITIAL_RATING  # Glicko-2, on the 1500-centred scale
    rd: float = GLICKO2_INITIAL_RD
    volatility: float = GLICKO2_INITIAL_VOLATILITY
    games: int = 0  # rated results, whatever each is made of (a duplicate match counts once)
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: float = 0.0  # sum of scores: the win rate counts draws as half

    def provisional(self, params: LadderParams) -> bool:
        return self.rd > params.provisional_rd

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def score_rate(self) -> float:
        return self.points / self.games if self.games else 0.0


def _tally(
    before: Standing, scores: Sequence[float], elo: EloRating, glicko: Glicko2Rating
) -> Standing:
    return Standing(
        elo=elo.rating,
        rating=glicko.rating,
        rd=glicko.rd,
        volatility=glicko.volatility,
        games=before.games + len(scores),
        wins=before.wins + sum(s > 0.5 for s in scores),
        draws=before.draws + sum(s == 0.5 for s in scores),
        losses=before.losses + sum(s < 0.5 for s in scores),
        points=before.points + math.fsum(scores),
    )


def rate_period(
    standings: Mapping[str, Standing],
    results: Sequence[tuple[str, str, float]],
    params: LadderParams,
) -> dict[str, Standing]:
    """New standings of every player in `results`, given as (A, B, A's score in [0, 1]).

    All results form one rating period: each is rated against the opponents' standings from before
    the period (players missing from `standings` start at the initial values), so their order
    inside the period does not matter.
    """
    played: dict[str, list[tuple[str, float]]] = {}
    for a, b, score_a in results:
        if a == b:
            raise InvalidResultError(f"{a!r} cannot be rated against itself")
        score = require_score(score_a)
        played.setdefault(a, []).append((b, score))
        played.setdefault(b, []).append((a, 1.0 - score))
    before = {player: standings.get(player, Standing()) for player in played}
    after = {}
    for player, games in played.items():
        me = before[player]
        elo = elo_rate_period(
            EloRating(me.elo, me.games), [(before[o].elo, s) for o, s in games], params.k
        )
        glicko = glicko2_rate_period(
            Glicko2Rating(me.rating, me.rd, me.volatility),
            [(before[o].rating, before[o].rd, s) for o, s in games],
            params.glicko,
        )
        after[player] = _tally(me, [s for _, s in games], elo, glicko)
    return after


def rate_result(
    a: Standing, b: Standing, score_a: float, params: LadderParams
) -> tuple[Standing, Standing]:
    """Both players after one result (a period of one game); B scores 1 - score_a."""
    after = rate_period({"a": a, "b": b}, [("a", "b", score_a)], params)
    return after["a"], after["b"]
