"""The SPRT's error rates, by simulation: 2,000 tests whose bots truly differ by elo0 accept H1
at most alpha of the time, and 2,000 at elo1 accept H0 at most beta of the time.

Each simulated test draws pair scores from a pentanomial distribution with exactly the Elo of
the hypothesis, in normalised Elo (the service's default) and in logistic Elo, and asks the
service's own `arena.store.sprt.decide` after every pair, as the workers do. The hypotheses are
far apart (elo0 0, elo1 150 nElo or 115 logistic Elo) so that a test ends in a few tens of pairs
and 4,000 of them run in seconds; the GSPRT's guarantee is asymptotic, so short tests are the
harder case for it. Measured: normalised 3.60% false H1, 4.55% false H0; logistic 3.50% and
4.95%.

Tolerance: an error rate measured over n = 2,000 tests has a binomial standard error of
sqrt(p (1 - p) / n), 0.0049 at p = 0.05; a rate may exceed its nominal value by three of those
(0.0146), which a correct SPRT does about once in 700 runs (one-sided 3 sigma). The seeds are
fixed, so the test is deterministic; a change in the maths moves it.
"""

from __future__ import annotations

import functools
import math
import random
from bisect import bisect_right
from concurrent.futures import ProcessPoolExecutor
from itertools import accumulate

import pytest

from arena.store.sprt import Counts, SprtDefinition, State, decide

RUNS = 2000
ALPHA = BETA = 0.05
# normalised Elo (the default) and logistic Elo; 150 nElo is about 115 logistic Elo here
DEFINITIONS = {
    normalized: SprtDefinition("sim", "b", "a", elo0=0.0, elo1=elo1, alpha=ALPHA, beta=BETA,
                               max_pairs=5000, normalized=normalized)
    for normalized, elo1 in ((True, 150.0), (False, 115.0))
}  # fmt: skip
BASE = (0.1, 0.2, 0.4, 0.2, 0.1)  # pair scores 0, 1/2, 1, 3/2, 2 points; an even match
NELO_PER_T = 800.0 / math.log(10.0)


def tolerance(rate: float) -> float:
    return 3.0 * math.sqrt(rate * (1.0 - rate) / RUNS)


def elo_of(p: list[float], normalized: bool) -> float:
    """The Elo of pair-score distribution `p`, from the definitions (not the code under test):
    normalised, (mean - 1/2) / per-game sd * 800 / ln 10; logistic, 400 log10(mean / (1 - mean))."""
    mean = sum(q * i / 4 for i, q in enumerate(p))
    if not normalized:
        return 400.0 * math.log10(mean / (1.0 - mean))
    variance = sum(q * (i / 4 - mean) ** 2 for i, q in enumerate(p))
    return (mean - 0.5) / math.sqrt(2.0 * variance) * NELO_PER_T  # per-game sd: sqrt(2) pair sd


def distribution(elo: float, normalized: bool) -> list[float]:
    """BASE tilted by exp(theta * score) until its Elo is `elo` (bisection)."""

    def tilted(theta: float) -> list[float]:
        weights = [p * math.exp(theta * i / 4) for i, p in enumerate(BASE)]
        return [w / sum(weights) for w in weights]

    low, high = -20.0, 20.0
    for _ in range(200):
        middle = (low + high) / 2
        if elo_of(tilted(middle), normalized) < elo:
            low = middle
        else:
            high = middle
    return tilted((low + high) / 2)


@functools.cache
def _decide(normalized: bool, counts: Counts) -> State:
    return decide(DEFINITIONS[normalized], counts)[1]


def run_tests(elo: float, normalized: bool, seed: int) -> list[State]:
    """RUNS simulated SPRTs whose test bot is truly `elo` stronger."""
    cumulative = list(accumulate(distribution(elo, normalized)))
    rng, states = random.Random(seed), list[State]()
    for _ in range(RUNS):
        cells, state = [0, 0, 0, 0, 0], State.RUNNING
        while state is State.RUNNING:
            cells[min(bisect_right(cumulative, rng.random()), 4)] += 1
            state = _decide(normalized, (cells[0], cells[1], cells[2], cells[3], cells[4]))
        states.append(state)
    return states


@pytest.mark.parametrize("normalized", [True, False])
def test_the_distributions_have_the_hypotheses_elo(normalized: bool) -> None:
    definition = DEFINITIONS[normalized]
    for elo in (definition.elo0, definition.elo1):
        p = distribution(elo, normalized)
        assert sum(p) == pytest.approx(1.0) and min(p) > 0
        assert elo_of(p, normalized) == pytest.approx(elo, abs=1e-9)
    assert elo_of(distribution(150.0, True), False) == pytest.approx(115.0, abs=1.0)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("normalized", [True, False], ids=["normalised", "logistic"])
def test_error_rates_are_at_most_alpha_and_beta(normalized: bool) -> None:
    definition = DEFINITIONS[normalized]
    elos, models, seeds = (definition.elo0, definition.elo1), (normalized,) * 2, (1, 2)
    with ProcessPoolExecutor(2) as pool:  # one hypothesis a core
        at_elo0, at_elo1 = pool.map(run_tests, elos, models, seeds)
    assert len(at_elo0) == len(at_elo1) == RUNS
    assert State.CAPPED not in at_elo0 + at_elo1, "every test ends at a bound"
    false_h1 = at_elo0.count(State.ACCEPTED_H1) / RUNS
    false_h0 = at_elo1.count(State.ACCEPTED_H0) / RUNS
    print(f"false H1 at elo0: {false_h1:.4f}; false H0 at elo1: {false_h0:.4f}")
    assert false_h1 <= ALPHA + tolerance(ALPHA)
    assert false_h0 <= BETA + tolerance(BETA)
    # and the test decides at all: most tests at elo1 accept H1
    assert at_elo1.count(State.ACCEPTED_H1) / RUNS >= 1.0 - BETA - tolerance(BETA)
