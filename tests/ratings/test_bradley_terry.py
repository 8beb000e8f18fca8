"""Bradley-Terry whole-event fit: known answers, synthetic recovery, calibration, errors."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping

import pytest

from arena.ratings import (
    BTFit,
    BTGame,
    InsufficientDataError,
    InvalidParameterError,
    InvalidResultError,
    fit_bradley_terry,
)

Game = tuple[str, str, float]

# True strengths average exactly 1500, the anchor of the fit, so they compare directly.
TRUE_ELO = {"ace": 1700.0, "bolt": 1600.0, "cog": 1550.0, "dart": 1450.0, "echo": 1400.0}
TRUE_ELO["fizz"] = 6 * 1500.0 - sum(TRUE_ELO.values())  # 1300
TRUE_SEAT = 50.0
Z95 = 1.959963984540054
ELO = 400.0 / math.log(10.0)


def _expected(elo_gap: float) -> float:
    return 1.0 / (1.0 + math.pow(10.0, -elo_gap / 400.0))


def _simulate(
    seed: int,
    games: int,
    *,
    draw_rate: float = 0.3,
    strengths: Mapping[str, float] = TRUE_ELO,
    seat: float = TRUE_SEAT,
) -> list[Game]:
    """Random pairings and seats; outcomes with E[seat-0 score] = logistic(gap + seat).

    Only `Random.random()` is used because its sequence is guaranteed across Python versions.
    Draws happen with probability draw_rate * 4p(1-p) and take half of it from each side, so the
    expected score stays p.
    """
    rng = random.Random(seed)
    names = sorted(strengths)
    result = []
    for _ in range(games):
        first = names[int(rng.random() * len(names))]
        others = [name for name in names if name != first]
        second = others[int(rng.random() * len(others))]
        p = _expected(strengths[first] - strengths[second] + seat)
        draw = draw_rate * 4.0 * p * (1.0 - p)
        u = rng.random()
        score = 0.5 if u < draw else 1.0 if u < draw + p - draw / 2.0 else 0.0
        result.append((first, second, score))
    return result


def _half_widths(fit: BTFit) -> dict[str, float]:
    return {e.entrant: (e.high - e.low) / 2.0 for e in fit.estimates}


def test_bradley_terry_laskos_three_bot_case_matches_exact_ml() -> None:
    # talkchess t=44180: A-C +24 =6 -0, A-B +18 =9 -3, B-C +18 =9 -3; exact ML = +-400 log10(3).
    games: list[Game] = []
    for a, b in (("A", "B"), ("B", "C")):
        games += [(a, b, 1.0)] * 18 + [(a, b, 0.5)] * 9 + [(a, b, 0.0)] * 3
    games += [("A", "C", 1.0)] * 24 + [("A", "C", 0.5)] * 6
    exact = 400.0 * math.log10(3.0)
    fit = fit_bradley_terry(games, seat_advantage=False, prior_draws=1e-9)
    assert [e.entrant for e in fit.estimates] == ["A", "B", "C"]
    assert fit.estimate("A").rating == pytest.approx(1500.0 + exact, abs=0.01)
    assert fit.estimate("B").rating == pytest.approx(1500.0, abs=0.01)
    assert fit.estimate("C").rating == pytest.approx(1500.0 - exact, abs=0.01)
    # The default prior (one virtual draw each) only shrinks a little toward the middle.
    shrunk = fit_bradley_terry(games, seat_advantage=False).estimate("A").rating - 1500.0
    assert exact - 10.0 < shrunk < exact


def test_bradley_terry_two_players_interval_matches_binomial_formula() -> None:
    # 60 of 100: the ML gap is logit(0.6) and Var(gap) = 1 / (N p (1 - p)); each player sits
    # half the gap from the mean, so its interval is half as wide as the gap's.
    games = [("x", "y", 1.0)] * 60 + [("x", "y", 0.0)] * 40
    fit = fit_bradley_terry(games, seat_advantage=False, prior_draws=1e-9)
    x, y = fit.estimate("x"), fit.estimate("y")
    assert x.rating - y.rating == pytest.approx(400.0 * math.log10(1.5), abs=1e-4)
    half_width = Z95 * ELO / math.sqrt(100 * 0.6 * 0.4) / 2.0
    assert (x.high - x.low) / 2.0 == pytest.approx(half_width, rel=1e-4)
    assert (y.high - y.low) / 2.0 == pytest.approx(half_width, rel=1e-4)
    assert x.games == y.games == fit.games == 100


def test_bradley_terry_balanced_seats_give_closed_form_seat_advantage() -> None:
    # x scores 35/50 in seat 0 and 25/50 in seat 1: logit p0 = d + h, logit p1 = d - h.
    games = [BTGame("x", "y", 1.0)] * 35 + [BTGame("x", "y", 0.0)] * 15
    games += [BTGame("y", "x", 0.0)] * 25 + [BTGame("y", "x", 1.0)] * 25
    fit = fit_bradley_terry(games, prior_draws=1e-9)
    logit0, logit1 = math.log(0.7 / 0.3), math.log(0.5 / 0.5)
    assert fit.seat_advantage == pytest.approx(ELO * (logit0 - logit1) / 2.0, abs=1e-4)
    gap = fit.estimate("x").rating - fit.estimate("y").rating
    assert gap == pytest.approx(ELO * (logit0 + logit1) / 2.0, abs=1e-4)
    seat_sd = ELO * math.sqrt(1.0 / (50 * 0.7 * 0.3) + 1.0 / (50 * 0.5 * 0.5)) / 2.0
    assert fit.seat_advantage_high - fit.seat_advantage == pytest.approx(Z95 * seat_sd, rel=1e-4)
    assert fit.seat_advantage - fit.seat_advantage_low == pytest.approx(Z95 * seat_sd, rel=1e-4)
    expected = f"over 100 games, 95% interval, first seat {round(fit.seat_advantage):+d} Elo"
    assert fit.caption() == f"rating: Bradley-Terry {expected}"


def test_bradley_terry_recovers_known_strengths_and_seat_advantage() -> None:
    games = _simulate(seed=20261122, games=4000)
    fit = fit_bradley_terry(games, confidence=0.999)
    assert [e.entrant for e in fit.estimates] == sorted(TRUE_ELO, key=lambda n: -TRUE_ELO[n])
    for estimate in fit.estimates:
        assert estimate.low <= TRUE_ELO[estimate.entrant] <= estimate.high, estimate
        assert estimate.high - estimate.low < 80.0  # informative, not merely wide
    assert fit.seat_advantage_low <= TRUE_SEAT <= fit.seat_advantage_high
    assert fit.seat_advantage == pytest.approx(TRUE_SEAT, abs=20.0)
    assert sum(e.rating for e in fit.estimates) / 6 == pytest.approx(1500.0, abs=1e-9)
    assert fit.games == 4000 == sum(e.games for e in fit.estimates) // 2


def test_bradley_terry_95_percent_intervals_are_calibrated() -> None:
    # Win/loss only, so the model is exactly right and coverage should be close to 95%.
    covered = trials = 0
    for seed in range(60):
        fit = fit_bradley_terry(_simulate(seed, 400, draw_rate=0.0))
        for e in fit.estimates:
            covered += e.low <= TRUE_ELO[e.entrant] <= e.high
        covered += fit.seat_advantage_low <= TRUE_SEAT <= fit.seat_advantage_high
        trials += 7
    assert 0.91 <= covered / trials <= 0.985


def test_bradley_terry_intervals_shrink_with_more_games() -> None:
    few = fit_bradley_terry(_simulate(7, 500))
    many = fit_bradley_terry(_simulate(7, 4000))
    few_widths, many_widths = _half_widths(few), _half_widths(many)
    for name in TRUE_ELO:  # eight times the games: about 1/sqrt(8) = 0.35 of the width
        assert many_widths[name] < 0.5 * few_widths[name]
    many_seat = many.seat_advantage_high - many.seat_advantage_low
    assert many_seat < 0.5 * (few.seat_advantage_high - few.seat_advantage_low)


def test_bradley_terry_no_seat_effect_gives_seat_advantage_near_zero() -> None:
    fit = fit_bradley_terry(_simulate(11, 3000, seat=0.0))
    assert fit.seat_advantage_low < 0.0 < fit.seat_advantage_high
    assert abs(fit.seat_advantage) < 25.0


def test_bradley_terry_swapping_seats_negates_seat_advantage() -> None:
    games = _simulate(3, 600)
    fit = fit_bradley_terry(games)
    mirrored = fit_bradley_terry([(b, a, 1.0 - s) for a, b, s in games])
    assert mirrored.seat_advantage == pytest.approx(-fit.seat_advantage, abs=1e-6)
    for estimate in fit.estimates:
        other = mirrored.estimate(estimate.entrant)
        assert other.rating == pytest.approx(estimate.rating, abs=1e-6)
        assert other.high - other.low == pytest.approx(estimate.high - estimate.low, abs=1e-6)


def test_bradley_terry_renaming_entrants_renames_estimates() -> None:
    games = _simulate(5, 600)
    rename = {name: f"bot-{len(TRUE_ELO) - i}" for i, name in enumerate(sorted(TRUE_ELO))}
    fit = fit_bradley_terry(games)
    renamed = fit_bradley_terry([(rename[a], rename[b], s) for a, b, s in games])
    for estimate in fit.estimates:
        assert renamed.estimate(rename[estimate.entrant]).rating == pytest.approx(
            estimate.rating, abs=1e-6
        )


def test_bradley_terry_perfect_score_stays_finite() -> None:
    games = [("champ", other, 1.0) for other in ("p", "q", "r") for _ in range(5)]
    games += [(other, "champ", 0.0) for other in ("p", "q", "r") for _ in range(5)]
    games += [("p", "q", 0.5), ("q", "r", 0.5), ("r", "p", 0.5)] * 5
    fit = fit_bradley_terry(games)
    champ = fit.estimates[0]
    assert champ.entrant == "champ"
    assert math.isfinite(champ.low) and math.isfinite(champ.high)
    assert 1700.0 < champ.rating < 2500.0
    stronger_prior = fit_bradley_terry(games, prior_draws=5.0).estimate("champ")
    assert stronger_prior.rating < champ.rating  # the prior is what holds it back


def test_bradley_terry_entrant_without_games_is_kept_with_a_wide_interval() -> None:
    fit = fit_bradley_terry(_simulate(9, 600), entrants=["ghost"])
    ghost = fit.estimate("ghost")
    assert ghost.games == 0
    widths = _half_widths(fit)
    assert all(widths["ghost"] > 3.0 * widths[name] for name in TRUE_ELO)


def test_bradley_terry_estimates_are_sorted_best_first() -> None:
    fit = fit_bradley_terry(_simulate(13, 800))
    ratings = [e.rating for e in fit.estimates]
    assert ratings == sorted(ratings, reverse=True)
    with pytest.raises(KeyError):
        fit.estimate("nobody")


def test_bradley_terry_fits_a_large_field() -> None:
    strengths = {f"b{i:03d}": 1500.0 + 6.0 * (i - 39.5) for i in range(80)}
    fit = fit_bradley_terry(_simulate(17, 8000, strengths=strengths))
    assert len(fit.estimates) == 80
    misses = sum(not e.low <= strengths[e.entrant] <= e.high for e in fit.estimates)
    assert misses <= 12  # about 4 expected at 95%


def test_bradley_terry_rejects_empty_input() -> None:
    with pytest.raises(InsufficientDataError):
        fit_bradley_terry([])
    with pytest.raises(InsufficientDataError):
        fit_bradley_terry([], entrants=["solo"])
    with pytest.raises(InsufficientDataError):
        fit_bradley_terry([], entrants=["a", "b"])  # two entrants but nothing to fit


def test_bradley_terry_rejects_bad_games() -> None:
    with pytest.raises(InvalidResultError):
        fit_bradley_terry([("a", "a", 1.0)])
    with pytest.raises(InvalidResultError):
        fit_bradley_terry([("a", "b", 2.0)])  # pair points, not a game score
    with pytest.raises(ValueError):
        fit_bradley_terry([("a", "b", -1.0)])


@pytest.mark.parametrize(
    "options",
    [{"prior_draws": 0.0}, {"prior_draws": math.inf}, {"confidence": 1.0}, {"confidence": 0.0}],
)
def test_bradley_terry_rejects_bad_parameters(options: dict[str, float]) -> None:
    with pytest.raises(InvalidParameterError):
        fit_bradley_terry([("a", "b", 1.0)], **options)  # type: ignore[arg-type]
