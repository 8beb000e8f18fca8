"""Rated results on a ladder: Elo, Glicko-2 and Weng-Lin updated together.

A result is an `Outcome` between sides (a bot, or a team of bots). Elo and Glicko-2 rate the
head-to-head ones (two sides of one bot each) from the pre-period values; Weng-Lin rates every
result, teams and tables included. `rate_outcomes` is the only function that turns results into
new ratings. The live path (a Redis
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
from arena.ratings.errors import (
    InvalidParameterError,
    InvalidResultError,
    require_score,
)
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
from arena.ratings.weng_lin import (
    DEFAULT_WENG_LIN,
    WENG_LIN_MU,
    WENG_LIN_SIGMA,
    WengLinConfig,
    WengLinRating,
    placement_ranks,
    weng_lin_rate,
)


@dataclass(frozen=True, slots=True)
class LadderParams:
    """A ladder's rating constants; fixed when the ladder is created, or a rebuild would differ."""

    k: float = ELO_DEFAULT_K
    glicko: Glicko2Config = field(default_factory=lambda: DEFAULT_GLICKO2)
    provisional_rd: float = PROVISIONAL_RD
    weng_lin: WengLinConfig = field(default_factory=lambda: DEFAULT_WENG_LIN)

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
    mu: float = WENG_LIN_MU  # Weng-Lin
    sigma: float = WENG_LIN_SIGMA

    @property
    def ordinal(self) -> float:
        return WengLinRating(self.mu, self.sigma).ordinal

    def provisional(self, params: LadderParams) -> bool:
        return self.rd > params.provisional_rd

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def score_rate(self) -> float:
        return self.points / self.games if self.games else 0.0


Side = tuple[Sequence[str], float]  # a side's players and its score (the higher the better)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One result between sides: who played on each, their ranks (0 = first, equal ranks tie)
    and their shares of the points (1 = ahead of every other side, a tie counts half)."""

    teams: tuple[tuple[str, ...], ...]
    ranks: tuple[int, ...]
    shares: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.teams) < 2 or any(not team for team in self.teams):
            raise InvalidResultError("a result needs at least two sides, none of them empty")
        if not len(self.teams) == len(self.ranks) == len(self.shares):
            raise InvalidResultError("a result needs one rank and one share per side")
        players = [player for team in self.teams for player in team]
        if len(set(players)) != len(players):
            twice = sorted({p for p in players if players.count(p) > 1})
            raise InvalidResultError(f"a bot plays at most one seat of a result: {twice}")

    @classmethod
    def pair(cls, a: str, b: str, score_a: float) -> Outcome:
        """A two-bot result: A's share of the points (a duplicate match may score 0.75)."""
        if a == b:
            raise InvalidResultError(f"{a!r} cannot be rated against itself")
        score = require_score(score_a)
        return cls(((a,), (b,)), placement_ranks((score, 1.0 - score)), (score, 1.0 - score))

    @classmethod
    def table(cls, sides: Sequence[Side]) -> Outcome:
        """A result between any number of sides, from each side's score."""
        scores = [float(score) for _, score in sides]
        if not all(math.isfinite(score) for score in scores):
            raise InvalidResultError(f"a side's score must be a finite number, got {scores}")
        ranks = placement_ranks(scores)
        others = max(len(scores) - 1, 1)
        shares = tuple(
            (sum(o < s for o in scores) + 0.5 * (scores.count(s) - 1)) / others for s in scores
        )
        return cls(tuple(tuple(names) for names, _ in sides), ranks, shares)

    @property
    def head_to_head(self) -> bool:
        """Two sides of one bot each: rated by Elo and Glicko-2 as well."""
        return len(self.teams) == 2 and all(len(team) == 1 for team in self.teams)

    def mark(self, side: int) -> int:
        """1 for a win (first alone), 0 for a draw (first, tied), -1 for a loss."""
        if self.ranks[side]:
            return -1
        return 0 if self.ranks.count(0) > 1 else 1


@dataclass(slots=True)
class _Played:
    """One player's results in a period."""

    marks: list[tuple[float, int]] = field(default_factory=list)  # (share, Outcome.mark)
    games: list[tuple[str, float]] = field(default_factory=list)  # head-to-head: (opponent, score)


def _tally(before: Standing, played: _Played, **ratings: float) -> Standing:
    """The new standing: `ratings` names every rating field."""
    marks = [mark for _, mark in played.marks]
    return Standing(
        **ratings,
        games=before.games + len(marks),
        wins=before.wins + marks.count(1),
        draws=before.draws + marks.count(0),
        losses=before.losses + marks.count(-1),
        points=before.points + math.fsum(share for share, _ in played.marks),
    )


def _ratings(s: Standing) -> dict[str, float]:
    return {"elo": s.elo, "rating": s.rating, "rd": s.rd, "volatility": s.volatility}


def _head_to_head(
    me: Standing, before: Mapping[str, Standing], played: _Played, params: LadderParams
) -> dict[str, float]:
    """Elo and Glicko-2 after the period's head-to-head results; unchanged without any."""
    if not played.games:
        return _ratings(me)
    elo = elo_rate_period(
        EloRating(me.elo, me.games), [(before[o].elo, s) for o, s in played.games], params.k
    )
    glicko = glicko2_rate_period(
        Glicko2Rating(me.rating, me.rd, me.volatility),
        [(before[o].rating, before[o].rd, s) for o, s in played.games],
        params.glicko,
    )
    return {
        "elo": elo.rating,
        "rating": glicko.rating,
        "rd": glicko.rd,
        "volatility": glicko.volatility,
    }


def _weng_lin(
    before: Mapping[str, Standing], outcomes: Sequence[Outcome], config: WengLinConfig
) -> dict[str, WengLinRating]:
    """Weng-Lin after the period. It is an online method: the results update it one after
    another, in their order (the log's order, so a rebuild replays the same sequence)."""
    current = {p: WengLinRating(s.mu, s.sigma) for p, s in before.items()}
    for outcome in outcomes:
        teams = [[current[p] for p in team] for team in outcome.teams]
        rated = weng_lin_rate(teams, outcome.ranks, config)
        for team, ratings in zip(outcome.teams, rated, strict=True):
            current.update(zip(team, ratings, strict=True))
    return current


def rate_outcomes(
    standings: Mapping[str, Standing], outcomes: Sequence[Outcome], params: LadderParams
) -> dict[str, Standing]:
    """New standings of every player in `outcomes`, rated as one period (players missing from
    `standings` start at the initial values).

    Elo and Glicko-2 rate each head-to-head result against the opponent's standing from before
    the period, so their order inside the period does not matter to them.
    """
    played: dict[str, _Played] = {}
    for outcome in outcomes:
        for side, team in enumerate(outcome.teams):
            for player in team:
                mark = (outcome.shares[side], outcome.mark(side))
                played.setdefault(player, _Played()).marks.append(mark)
        if outcome.head_to_head:
            (a,), (b,) = outcome.teams
            played[a].games.append((b, outcome.shares[0]))
            played[b].games.append((a, outcome.shares[1]))
    before = {player: standings.get(player, Standing()) for player in played}
    weng_lin = _weng_lin(before, outcomes, params.weng_lin)
    after = {}
    for player, mine in played.items():
        me = before[player]
        ratings = _head_to_head(me, before, mine, params)
        wl = weng_lin[player]
        after[player] = _tally(me, mine, **ratings, mu=wl.mu, sigma=wl.sigma)
    return after


def rate_period(
    standings: Mapping[str, Standing],
    results: Sequence[tuple[str, str, float]],
    params: LadderParams,
) -> dict[str, Standing]:
    """`rate_outcomes` for two-bot results, given as (A, B, A's score in [0, 1])."""
    return rate_outcomes(standings, [Outcome.pair(a, b, s) for a, b, s in results], params)


def rate_result(
    a: Standing, b: Standing, score_a: float, params: LadderParams
) -> tuple[Standing, Standing]:
    """Both players after one result (a period of one game); B scores 1 - score_a."""
    after = rate_period({"a": a, "b": b}, [("a", "b", score_a)], params)
    return after["a"], after["b"]
