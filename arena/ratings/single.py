"""One result rated as its own period, fast and bit for bit as `rate_outcomes` rates it.

`rate_outcomes` is general (any number of results a period) and goes through validating value
objects and openskill's `rate`, which deep-copies its input and checks every argument: about
60 microseconds a result. A batch of results, each its own rating period, only needs the
one-result case, so this module computes it directly on floats (about a third of the time).

Every float operation is the one `rate_outcomes` performs, in the same order (`x ** 2` stays a
power, a sum keeps its order, `0.0 + x` stays), so the live path may use either and a rebuild
still agrees to the last bit: tests/ratings/test_single.py compares both on random results.
The Weng-Lin part follows openskill 6's PlackettLuce with this arena's settings (no weights,
scores, margin, balance or sigma limit); `_MODEL_CHECKED` pins the release it was checked against.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import openskill

from arena.ratings.elo import ELO_SCALE
from arena.ratings.glicko2 import (
    GLICKO2_INITIAL_RATING,
    GLICKO2_SCALE,
    Glicko2Config,
    _expected,
    _g,
    _new_volatility,
)
from arena.ratings.ladder import LadderParams, Outcome, Standing
from arena.ratings.weng_lin import ORDINAL_Z, WengLinConfig

# The openskill release this port reproduces; another one falls back to openskill itself.
_MODEL_CHECKED = "6.2.0"
EXACT_PORT = getattr(openskill, "__version__", "") == _MODEL_CHECKED


def _team_sums(team: list[tuple[float, float]]) -> tuple[float, float]:
    """A team's mu and sigma squared: openskill sums its players best ordinal first."""
    if len(team) > 1:
        team = sorted(team, key=lambda p: p[0] - ORDINAL_Z * p[1], reverse=True)
    mu_summed = 0.0
    sigma_squared_summed = 0.0
    for mu, sigma in team:
        mu_summed += mu * 1.0
        sigma_squared_summed += (sigma * 1.0) ** 2
    return mu_summed, sigma_squared_summed


def plackett_luce(
    teams: list[list[tuple[float, float]]], ranks: tuple[int, ...], config: WengLinConfig
) -> list[list[tuple[float, float]]]:
    """openskill's PlackettLuce.rate(teams, ranks) on (mu, sigma) pairs, in the input's order."""
    tau_squared = config.tau * config.tau
    drifted = [[(mu, math.sqrt(sigma * sigma + tau_squared)) for mu, sigma in t] for t in teams]
    order = sorted(range(len(teams)), key=lambda i: float(ranks[i]))  # stable, as openskill's
    ordered = [drifted[i] for i in order]
    rank = [int(float(ranks[i])) for i in order]
    sums = [_team_sums(team) for team in ordered]
    collective = 0.0
    beta_squared = config.beta**2
    for _, sigma_squared in sums:
        collective += sigma_squared + beta_squared
    c = math.sqrt(collective)
    n = len(ordered)
    exps = [math.exp(mu / c) for mu, _ in sums]
    sum_q = []
    for q in range(n):
        total = 0.0
        first = True
        for i in range(n):
            if rank[i] >= rank[q]:
                total = exps[i] if first else total + exps[i]
                first = False
        sum_q.append(total)
    a = [rank.count(r) for r in rank]
    rated: list[list[tuple[float, float]]] = []
    for i, (_, team_sigma_squared) in enumerate(sums):
        omega = 0.0
        delta = 0.0
        i_mu_over_c = math.exp(sums[i][0] / c)
        for q in range(n):
            x = i_mu_over_c / sum_q[q]
            if rank[q] <= rank[i]:
                delta += x * (1 - x) / a[q]
                if q == i:
                    omega += (1 - x) / a[q]
                else:
                    omega -= x / a[q]
        omega *= team_sigma_squared / c
        delta *= team_sigma_squared / c**2
        delta *= math.sqrt(team_sigma_squared) / c
        tied = a[i] > 1  # openskill averages a tied group's mu changes, which come to + 0.0
        team = []
        for mu, sigma in ordered[i]:
            share = sigma**2 / team_sigma_squared
            if omega >= 0:
                mu += share * omega * 1.0
                sigma *= math.sqrt(max(1 - share * delta * 1.0, config.kappa))
            else:
                mu += share * omega / 1.0
                sigma *= math.sqrt(max(1 - share * delta / 1.0, config.kappa))
            team.append((mu + 0.0 if tied else mu, sigma))
        rated.append(team)
    back: list[list[tuple[float, float]]] = [[] for _ in teams]
    for position, original in enumerate(order):
        back[original] = rated[position]
    return back


def _elo(me: float, opponent: float, score: float, k: float) -> float:
    change = 0.0
    change += k * (score - 1.0 / (1.0 + math.pow(10.0, (opponent - me) / ELO_SCALE)))
    return me + change


def _glicko(
    me: Standing, other: Standing, score: float, config: Glicko2Config
) -> tuple[float, float, float]:
    """`glicko2_rate_period` for a period of one game, without its value objects."""
    mu = (me.rating - GLICKO2_INITIAL_RATING) / GLICKO2_SCALE
    phi = me.rd / GLICKO2_SCALE
    sigma = me.volatility
    opponent_mu = (other.rating - GLICKO2_INITIAL_RATING) / GLICKO2_SCALE
    opponent_phi = other.rd / GLICKO2_SCALE
    expected = _expected(mu, opponent_mu, opponent_phi)
    g = _g(opponent_phi)
    information = 0.0
    information += g * g * expected * (1.0 - expected)
    improvement = 0.0
    improvement += g * (score - expected)
    if information == 0.0:
        grown = GLICKO2_SCALE * math.sqrt(phi * phi + sigma * sigma)
        return me.rating, min(grown, config.max_rd), sigma
    v = 1.0 / information
    new_sigma = _new_volatility(sigma, phi, v, v * improvement, config)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + information)
    new_mu = mu + new_phi * new_phi * improvement
    rating = GLICKO2_INITIAL_RATING + GLICKO2_SCALE * new_mu
    return rating, min(GLICKO2_SCALE * new_phi, config.max_rd), new_sigma


def rate_one(
    standings: Mapping[str, Standing], outcome: Outcome, params: LadderParams
) -> dict[str, Standing]:
    """`rate_outcomes(standings, [outcome], params)`, the same floats, faster."""
    if not EXACT_PORT:  # pragma: no cover - another openskill release: the general path
        from arena.ratings.ladder import rate_outcomes

        return rate_outcomes(standings, [outcome], params)
    initial = None
    before: list[list[Standing]] = []
    for team in outcome.teams:
        mine = []
        for player in team:
            standing = standings.get(player)
            if standing is None:
                standing = initial = initial or Standing()
            mine.append(standing)
        before.append(mine)
    rated = plackett_luce(
        [[(s.mu, s.sigma) for s in team] for team in before], outcome.ranks, params.weng_lin
    )
    head_to_head = outcome.head_to_head
    first_tied = outcome.ranks.count(0) > 1
    after = {}
    for side, team in enumerate(outcome.teams):
        share = outcome.shares[side]
        mark = -1 if outcome.ranks[side] else (0 if first_tied else 1)
        for index, player in enumerate(team):
            me = before[side][index]
            elo, rating, rd, volatility = me.elo, me.rating, me.rd, me.volatility
            if head_to_head:
                other = before[1 - side][0]
                elo = _elo(me.elo, other.elo, share, params.k)
                rating, rd, volatility = _glicko(me, other, share, params.glicko)
            mu, sigma = rated[side][index]
            after[player] = Standing(
                elo,
                rating,
                rd,
                volatility,
                me.games + 1,
                me.wins + (mark == 1),
                me.draws + (mark == 0),
                me.losses + (mark == -1),
                me.points + share,
                mu,
                sigma,
            )
    return after
