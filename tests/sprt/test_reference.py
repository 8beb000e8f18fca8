"""The SPRT's log-likelihood ratio against fishtest's, the reference implementation, to 1e-6.

Reference numbers: fishtest (github.com/official-stockfish/fishtest), file
server/fishtest/stats/LLRcalc.py at commit 0753fcc6222e70a11a7e9a90a4fd549654338a45, functions
`LLR_logistic(elo0, elo1, results)` and `LLR_normalized(nelo0, nelo1, results)`, run unchanged
with scipy 1.17.1 on the counts below (fishtest's regularisation of empty cells included). The
first three rows are also the vectors of tests/ratings/test_pentanomial.py (to 1e-3 there);
the others add fishtest's own test pentanomial
[1, 60, 500, 1200, 600] (server/tests/test_stats_sprt.py), fastchess's sprt test counts
(normalised Elo there, both models here) and small tests with empty cells, as an SPRT begins.
The service decides with `arena.store.sprt.decide`, which calls the same `sprt_llr`.
"""

from __future__ import annotations

import pytest

from arena.ratings import sprt_llr
from arena.store.sprt import SprtDefinition, State, decide

# counts, (elo0, elo1), fishtest LLR_logistic, fishtest LLR_normalized (same elo0, elo1 except
# the first three rows, whose normalised bounds are [0, 2] as in the notes' vectors)
FISHTEST = [
    ((4063, 8620, 4307), (0, 3), 2.991288808308957, (0, 2), 1.719678861495611),
    ((500, 2300, 4400, 2450, 550), (0, 3), 3.187417110936456, (0, 2), 1.8346301324724934),
    ((100, 1200, 3100, 1300, 150), (0, 3), 4.325258686046332, (0, 2), 1.9135286147506596),
    ((1, 60, 500, 1200, 600), (0, 3), 20.266435854933388, (0, 2), 13.441404954476775),
    ((485, 1923, 2942, 1937, 594), (0, 5), 3.293275131086547, (0, 5), 3.005985433869809),
    ((261, 739, 2683, 737, 253), (-10, 0), 8.837128946448155, (-10, 0), 3.029622623001333),
    ((63, 252, 385, 250, 74), (0, 10), -0.5306984025850525, (0, 10), -0.04424344972787697),
    ((3, 10, 25, 14, 6), (0, 5), 0.255994522496, (0, 5), 0.1882400772035488),
    ((0, 4, 20, 11, 0), (0, 5), 0.4392083489707691, (0, 5), 0.2102998110839075),
    ((10, 0, 30, 0, 22), (-5, 5), 0.6690941097422123, (-5, 5), 0.679879516272709),
]


@pytest.mark.parametrize(
    ("counts", "logistic", "llr_logistic", "normalized", "llr_normalized"), FISHTEST
)
def test_llr_matches_fishtest_to_1e_6(
    counts: tuple[int, ...],
    logistic: tuple[float, float],
    llr_logistic: float,
    normalized: tuple[float, float],
    llr_normalized: float,
) -> None:
    assert sprt_llr(counts, *logistic, normalized=False) == pytest.approx(llr_logistic, abs=1e-6)
    assert sprt_llr(counts, *normalized) == pytest.approx(llr_normalized, abs=1e-6)


@pytest.mark.parametrize(
    ("counts", "logistic", "llr_logistic", "normalized", "llr_normalized"), FISHTEST
)
def test_the_service_decides_with_fishtest_llr(
    counts: tuple[int, ...],
    logistic: tuple[float, float],
    llr_logistic: float,
    normalized: tuple[float, float],
    llr_normalized: float,
) -> None:
    if len(counts) != 5:
        return  # the service counts pairs only
    pentanomial = (counts[0], counts[1], counts[2], counts[3], counts[4])
    for elos, is_normalized, expected in (
        (logistic, False, llr_logistic),
        (normalized, True, llr_normalized),
    ):
        definition = SprtDefinition(
            "t", "greedy", "random", elo0=elos[0], elo1=elos[1], normalized=is_normalized
        )
        llr, state = decide(definition, pentanomial)
        assert llr == pytest.approx(expected, abs=1e-6)
        lower, upper = definition.bounds  # +-2.944 for alpha = beta = 0.05
        want = (
            State.ACCEPTED_H1
            if expected >= upper
            else State.ACCEPTED_H0
            if expected <= lower
            else State.RUNNING
        )
        assert state is want
