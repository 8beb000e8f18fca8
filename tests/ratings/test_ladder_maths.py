"""Rated periods of a ladder (both systems at once) and ladder matchmaking: pure maths."""

from __future__ import annotations

import random

import pytest

from arena.ratings import (
    EloRating,
    Glicko2Rating,
    InvalidKFactorError,
    InvalidResultError,
    elo_rate_game,
    glicko2_rate_game,
)
from arena.ratings.ladder import LadderParams, Standing, rate_period, rate_result
from arena.ratings.matchmaking import Candidate, choose_pairs, closeness, need

PARAMS = LadderParams()


def test_one_result_is_exactly_the_two_systems_one_game_updates() -> None:
    a = Standing(elo=1612.5, rating=1580.0, rd=90.0, volatility=0.058, games=7)
    b = Standing(elo=1490.0, rating=1455.0, rd=210.0, volatility=0.061, games=2)
    new_a, new_b = rate_result(a, b, 0.5, PARAMS)
    elo_a, elo_b = elo_rate_game(EloRating(a.elo, a.games), EloRating(b.elo, b.games), 0.5)
    g_a, g_b = glicko2_rate_game(
        Glicko2Rating(a.rating, a.rd, a.volatility),
        Glicko2Rating(b.rating, b.rd, b.volatility),
        0.5,
    )
    assert (new_a.elo, new_b.elo) == (elo_a.rating, elo_b.rating)
    assert (new_a.rating, new_a.rd, new_a.volatility) == (g_a.rating, g_a.rd, g_a.volatility)
    assert (new_b.rating, new_b.rd, new_b.volatility) == (g_b.rating, g_b.rd, g_b.volatility)
    assert (new_a.games, new_a.draws, new_a.points) == (8, 1, 0.5)


def test_glickmans_example_as_one_period() -> None:
    standings = {
        "p": Standing(rating=1500, rd=200),
        "o1": Standing(rating=1400, rd=30),
        "o2": Standing(rating=1550, rd=100),
        "o3": Standing(rating=1700, rd=300),
    }
    after = rate_period(standings, [("p", "o1", 1.0), ("o2", "p", 1.0), ("p", "o3", 0.0)], PARAMS)
    assert after["p"].rating == pytest.approx(1464.05, abs=0.01)
    assert after["p"].rd == pytest.approx(151.52, abs=0.01)
    assert after["p"].volatility == pytest.approx(0.05999, abs=1e-5)
    assert (after["p"].wins, after["p"].losses, after["p"].games) == (1, 2, 3)


def test_swapping_the_seats_of_a_result_changes_nothing() -> None:
    a, b = Standing(elo=1530.0, rd=120.0), Standing(elo=1470.0, rating=1400.0)
    assert rate_result(a, b, 0.75, PARAMS) == tuple(reversed(rate_result(b, a, 0.25, PARAMS)))


def test_bad_results_and_constants_are_refused() -> None:
    with pytest.raises(InvalidResultError, match="against itself"):
        rate_period({}, [("x", "x", 1.0)], PARAMS)
    with pytest.raises(InvalidResultError, match="between 0 and 1"):
        rate_result(Standing(), Standing(), 2.0, PARAMS)
    with pytest.raises(InvalidKFactorError, match="positive"):
        LadderParams(k=-16)
    with pytest.raises(ValueError, match="provisional"):
        LadderParams(provisional_rd=0)


def test_provisional_and_rates() -> None:
    assert Standing().provisional(PARAMS)
    settled = Standing(rd=60.0, games=10, wins=6, draws=2, losses=2, points=7.0)
    assert not settled.provisional(PARAMS)
    assert (settled.win_rate, settled.score_rate) == (0.6, 0.7)


def test_the_neediest_bot_is_paired_first_and_with_a_similar_rating() -> None:
    settled = [Candidate(f"s{i}", 1500.0 + 300 * i, 50.0, 100) for i in range(4)]
    newcomer = Candidate("new", 1800.0, 350.0, 0)
    assert need(newcomer) > max(need(c) for c in settled)
    assert closeness(settled[0], settled[1]) > closeness(settled[0], settled[3])
    firsts = [choose_pairs([*settled, newcomer], 1, random.Random(seed))[0] for seed in range(50)]
    assert all("new" in pair for pair in firsts)
    # Among settled bots, neighbours on the rating scale meet far more often than distant ones.
    opponents = [
        next(n for n in pair if n != "s1")
        for seed in range(200)
        for pair in choose_pairs(settled, 2, random.Random(seed))
        if "s1" in pair
    ]
    assert opponents.count("s0") + opponents.count("s2") > 5 * opponents.count("s3")


def test_pairs_are_disjoint_reproducible_and_avoid_rematches() -> None:
    pool = [Candidate(f"b{i}", 1500.0 + 10 * i) for i in range(7)]
    pairs = choose_pairs(pool, 10, random.Random(3))
    names = [n for pair in pairs for n in pair]
    assert len(pairs) == 3 and len(set(names)) == 6
    assert pairs == choose_pairs(list(reversed(pool)), 10, random.Random(3))
    two = [Candidate("a"), Candidate("b"), Candidate("c")]
    rematches = sum(
        "b" in choose_pairs(two, 1, random.Random(s), {"a": "b", "b": "a"})[0]
        and "a" in choose_pairs(two, 1, random.Random(s), {"a": "b", "b": "a"})[0]
        for s in range(200)
    )
    assert rematches < 60
    with pytest.raises(ValueError, match="distinct"):
        choose_pairs([Candidate("a"), Candidate("a")], 1, random.Random(1))
