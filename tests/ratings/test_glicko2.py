"""Glicko-2: Glickman's published example, idle periods, two-player games, provisional flag."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.ratings import (
    GLICKO2_SCALE,
    Glicko2Config,
    Glicko2Game,
    Glicko2Rating,
    InvalidParameterError,
    InvalidRatingError,
    InvalidResultError,
    glicko2_rate_game,
    glicko2_rate_period,
    is_provisional,
)

PAPER_PLAYER = Glicko2Rating(1500.0, 200.0, 0.06)
PAPER_GAMES = [(1400.0, 30.0, 1.0), (1550.0, 100.0, 0.0), (1700.0, 300.0, 0.0)]

ratings = st.floats(min_value=500.0, max_value=2800.0)
deviations = st.floats(min_value=30.0, max_value=350.0)
volatilities = st.floats(min_value=0.01, max_value=0.2)
scores = st.sampled_from([0.0, 0.5, 1.0])
players = st.builds(Glicko2Rating, ratings, deviations, volatilities)


def test_glicko2_rate_period_reproduces_glickman_example() -> None:
    updated = glicko2_rate_period(PAPER_PLAYER, PAPER_GAMES, Glicko2Config(tau=0.5))
    # Published: r' = 1464.06 (from a rounded mu'), RD' = 151.52, sigma' = 0.05999.
    assert updated.rating == pytest.approx(1464.05, abs=0.01)
    assert updated.rd == pytest.approx(151.52, abs=0.01)
    assert updated.volatility == pytest.approx(0.05999, abs=1e-5)
    # Unrounded values, recomputed independently of this code from Glickman's worked example.
    assert updated.rating == pytest.approx(1464.0507, abs=1e-3)
    assert updated.rd == pytest.approx(151.5165, abs=1e-3)
    assert updated.volatility == pytest.approx(0.0599960, abs=1e-7)


def test_glicko2_rate_period_example_intermediates_on_the_glicko2_scale() -> None:
    updated = glicko2_rate_period(PAPER_PLAYER, [Glicko2Game(*game) for game in PAPER_GAMES])
    # The paper's step-8 values before converting back: mu' = -0.2069, phi' = 0.8722.
    assert (updated.rating - 1500.0) / GLICKO2_SCALE == pytest.approx(-0.2069, abs=1e-4)
    assert updated.rd / GLICKO2_SCALE == pytest.approx(0.8722, abs=1e-4)


def test_glicko2_rate_period_game_order_does_not_matter() -> None:
    forward = glicko2_rate_period(PAPER_PLAYER, PAPER_GAMES)
    backward = glicko2_rate_period(PAPER_PLAYER, list(reversed(PAPER_GAMES)))
    assert forward.rating == pytest.approx(backward.rating, abs=1e-9)
    assert forward.rd == pytest.approx(backward.rd, abs=1e-9)


def test_glicko2_rate_period_without_games_only_grows_rd() -> None:
    idle = glicko2_rate_period(PAPER_PLAYER, [])
    # Step 6: phi' = sqrt(phi^2 + sigma^2) on the Glicko-2 scale.
    phi = 200.0 / 173.7178
    assert idle.rd == pytest.approx(173.7178 * math.sqrt(phi * phi + 0.06 * 0.06), abs=1e-3)
    assert idle.rd > PAPER_PLAYER.rd
    assert (idle.rating, idle.volatility) == (PAPER_PLAYER.rating, PAPER_PLAYER.volatility)


def test_glicko2_rate_period_idle_rd_is_capped() -> None:
    player = Glicko2Rating(1500.0, 349.9, 0.06)
    assert glicko2_rate_period(player, []).rd == 350.0
    uncapped = glicko2_rate_period(player, [], Glicko2Config(max_rd=math.inf))
    assert uncapped.rd > 350.0


def test_glicko2_rate_period_upsets_raise_volatility() -> None:
    # Twenty wins over a far stronger, well-known player: far more than expected, which takes the
    # "Delta^2 > phi^2 + v" branch of the volatility bracket.
    player = Glicko2Rating(1500.0, 50.0, 0.06)
    updated = glicko2_rate_period(player, [(2300.0, 30.0, 1.0)] * 20)
    assert updated.volatility > player.volatility
    assert updated.rating > player.rating + 100.0


def test_glicko2_rate_period_expected_results_keep_volatility_close() -> None:
    player = Glicko2Rating(1500.0, 80.0, 0.06)
    updated = glicko2_rate_period(player, [(1500.0, 80.0, 0.5)] * 4)
    assert updated.volatility == pytest.approx(player.volatility, abs=1e-3)
    assert updated.volatility < player.volatility  # less surprise than the prior allows for


def test_glicko2_rate_game_draw_between_equals_keeps_ratings() -> None:
    a, b = glicko2_rate_game(Glicko2Rating(), Glicko2Rating(), 0.5)
    assert a.rating == pytest.approx(1500.0) and b.rating == pytest.approx(1500.0)
    assert a.rd < 350.0 and a == b


def test_glicko2_rate_game_matches_two_one_game_periods() -> None:
    a = Glicko2Rating(1620.0, 90.0, 0.05)
    b = Glicko2Rating(1480.0, 240.0, 0.07)
    new_a, new_b = glicko2_rate_game(a, b, 0.0)
    assert new_a == glicko2_rate_period(a, [(1480.0, 240.0, 0.0)])
    assert new_b == glicko2_rate_period(b, [(1620.0, 90.0, 1.0)])
    assert new_a.rating < a.rating and new_b.rating > b.rating
    assert new_b.rating - b.rating > a.rating - new_a.rating  # the less certain side moves more


@given(players, players, scores)
def test_glicko2_rate_game_is_symmetric_in_the_players(
    a: Glicko2Rating, b: Glicko2Rating, score: float
) -> None:
    new_a, new_b = glicko2_rate_game(a, b, score)
    swapped_b, swapped_a = glicko2_rate_game(b, a, 1.0 - score)
    assert (new_a, new_b) == (swapped_a, swapped_b)


@given(players, players)
def test_glicko2_rate_game_better_result_never_rates_lower(
    a: Glicko2Rating, b: Glicko2Rating
) -> None:
    after = [glicko2_rate_game(a, b, s)[0].rating for s in (0.0, 0.5, 1.0)]
    assert after[0] < after[1] < after[2]


@given(players, st.lists(st.tuples(ratings, deviations, scores), min_size=1, max_size=8))
def test_glicko2_rate_period_games_shrink_rd_unless_surprising(
    player: Glicko2Rating, games: list[tuple[float, float, float]]
) -> None:
    played = glicko2_rate_period(player, games, Glicko2Config(max_rd=math.inf))
    # Games add information, so RD ends below where the new volatility alone would put it...
    inflated = math.hypot(player.rd, GLICKO2_SCALE * played.volatility)
    assert played.rd < inflated
    # ...and below idle growth, unless the results were surprising enough to raise volatility
    # (e.g. 1238 losing to 500 does: a real Glicko-2 effect, found by this test).
    if played.volatility <= player.volatility:
        assert played.rd < glicko2_rate_period(player, [], Glicko2Config(max_rd=math.inf)).rd
    assert played.volatility > 0.0 and math.isfinite(played.rating)


def test_is_provisional_uses_rd_threshold() -> None:
    assert is_provisional(Glicko2Rating())  # a newcomer, RD 350
    assert is_provisional(Glicko2Rating(rd=110.5))
    assert not is_provisional(Glicko2Rating(rd=110.0))  # "while RD > threshold"
    assert not is_provisional(Glicko2Rating(rd=60.0))
    assert not is_provisional(Glicko2Rating(rd=150.0), threshold=200.0)


def test_is_provisional_clears_after_enough_games() -> None:
    player, opponent = Glicko2Rating(), Glicko2Rating(1500.0, 50.0, 0.06)
    games = 0
    while is_provisional(player):
        player = glicko2_rate_period(player, [(1500.0, 50.0, 0.5)])
        games += 1
    assert 5 <= games <= 30
    assert player.rd <= 110.0 < glicko2_rate_game(Glicko2Rating(), opponent, 0.5)[0].rd


@pytest.mark.parametrize("field", ["tau", "tolerance", "max_rd"])
@pytest.mark.parametrize("value", [0.0, -0.5, math.nan])
def test_glicko2_config_rejects_non_positive_constants(field: str, value: float) -> None:
    with pytest.raises(InvalidParameterError):
        Glicko2Config(**{field: value})


@pytest.mark.parametrize(
    ("rating", "rd", "volatility"),
    [(math.nan, 200.0, 0.06), (1500.0, 0.0, 0.06), (1500.0, -5.0, 0.06), (1500.0, 200.0, 0.0)],
)
def test_glicko2_rating_rejects_impossible_values(
    rating: float, rd: float, volatility: float
) -> None:
    with pytest.raises(InvalidRatingError):
        Glicko2Rating(rating, rd, volatility)


def test_glicko2_rate_period_rejects_bad_games() -> None:
    with pytest.raises(InvalidResultError):
        glicko2_rate_period(PAPER_PLAYER, [(1400.0, 30.0, 2.0)])
    with pytest.raises(InvalidRatingError):
        glicko2_rate_period(PAPER_PLAYER, [(1400.0, 0.0, 1.0)])
