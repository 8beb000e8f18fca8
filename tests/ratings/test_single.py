"""The one-result fast path rates exactly as `rate_outcomes` (bit for bit) and openskill do."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.ratings import Glicko2Config
from arena.ratings.ladder import LadderParams, Outcome, Standing, rate_outcomes
from arena.ratings.single import EXACT_PORT, plackett_luce, rate_one
from arena.ratings.weng_lin import WengLinConfig, WengLinRating, weng_lin_rate

NAMES = [f"bot{i}" for i in range(12)]


def _random_outcome(rng: random.Random) -> Outcome:
    """A pair (scores incl. a duplicate match's 0.75), a table of 3-4, or 2-3 teams of 2."""
    kind = rng.randrange(3)
    if kind == 0:
        a, b = rng.sample(NAMES, 2)
        return Outcome.pair(a, b, rng.choice((0.0, 0.25, 0.5, 0.75, 1.0)))
    if kind == 1:
        seats = rng.sample(NAMES, rng.choice((3, 4)))
        return Outcome.table(tuple(((n,), float(rng.randrange(3))) for n in seats))
    players = rng.sample(NAMES, rng.choice((4, 6)))
    teams = [players[i : i + 2] for i in range(0, len(players), 2)]
    return Outcome.table(tuple((team, float(rng.randrange(2))) for team in teams))


def test_the_exact_port_is_in_use() -> None:
    # On another openskill release rate_one falls back to the general path: still exact, slower.
    assert EXACT_PORT


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    k=st.sampled_from((16.0, 32.0)),
    tau=st.sampled_from((0.3, 0.5, 1.2)),
    drift=st.sampled_from((0.0, 25.0 / 300.0, 0.5)),
)
def test_a_sequence_of_results_rates_bit_for_bit_as_rate_outcomes(
    seed: int, k: float, tau: float, drift: float
) -> None:
    params = LadderParams(k, Glicko2Config(tau=tau), weng_lin=WengLinConfig(tau=drift))
    rng = random.Random(seed)
    general: dict[str, Standing] = {}
    fast: dict[str, Standing] = {}
    for _ in range(60):
        outcome = _random_outcome(rng)
        expected = rate_outcomes(general, [outcome], params)
        got = rate_one(fast, outcome, params)
        # repr tells 0.0 from -0.0 and shows every digit: the stored bytes are reprs.
        assert {p: repr(s) for p, s in got.items()} == {p: repr(s) for p, s in expected.items()}
        general.update(expected)
        fast.update(got)


def test_plackett_luce_matches_openskill_on_its_documented_examples() -> None:
    no_drift = WengLinConfig(tau=0.0)
    teams = [[(25.0, 25.0 / 3.0), (32.444, 5.123)], [(43.381, 2.421), (25.188, 6.211)]]
    [[x1, x2], [y1, y2]] = plackett_luce(teams, (0, 1), no_drift)
    assert x1 == (28.669648436582808, 8.071520788025197)
    assert x2 == (33.83086971107981, 5.062772998705765)
    assert y1 == (43.071274808241974, 2.4166900452721256)
    assert y2 == (23.149503312339064, 6.1378606973362135)
    rated = plackett_luce([[(25.0, 25.0 / 3.0)] for _ in range(4)], (4, 1, 3, 2), no_drift)
    assert rated[0][0] == (20.96265504062538, 8.083731307186588)
    assert rated[1][0] == (27.795084971874736, 8.263160757613477)


def test_plackett_luce_matches_openskill_with_ties_and_uneven_teams() -> None:
    rng = random.Random(7)
    for _ in range(200):
        sizes = [rng.choice((1, 2, 3)) for _ in range(rng.choice((2, 3, 4)))]
        teams = [[(rng.uniform(10, 40), rng.uniform(1, 9)) for _ in range(n)] for n in sizes]
        ranks = tuple(rng.randrange(len(sizes)) for _ in sizes)
        ours = plackett_luce(teams, ranks, WengLinConfig())
        wl = [[WengLinRating(mu, sigma) for mu, sigma in team] for team in teams]
        theirs = weng_lin_rate(wl, ranks, WengLinConfig())
        assert ours == [[(r.mu, r.sigma) for r in team] for team in theirs]
