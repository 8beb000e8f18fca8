"""Fixed events whose Bradley-Terry fits are pinned in bt_reference.json.

The JSON holds the fits of the pure-Python implementation these replaced (Cholesky in plain
Python, before numpy), written once by `python -m tests.ratings.bt_reference`; the numpy fit
must reproduce them within 1e-9 Elo. Only `random.Random.random()` is used: its sequence is
guaranteed across Python versions.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from arena.ratings import BTFit, fit_bradley_terry

Game = tuple[str, str, float]
REFERENCE = Path(__file__).with_name("bt_reference.json")


def random_games(seed: int, entrants: int, games: int, draw_rate: float) -> list[Game]:
    """Random pairings and seats; the lower-numbered entrant is a little stronger."""
    rng = random.Random(seed)
    names = [f"p{i:02d}" for i in range(entrants)]
    result = []
    for _ in range(games):
        a, b = int(rng.random() * entrants), int(rng.random() * (entrants - 1))
        b += b >= a
        edge = 0.5 + 0.04 * (b - a) / entrants + 0.03  # seat 0 gets a little more
        u = rng.random()
        score = 0.5 if u < draw_rate else 1.0 if u < draw_rate + (1 - draw_rate) * edge else 0.0
        result.append((names[a], names[b], score))
    return result


def xor_swiss(entrants: int, rounds: int, seed: int) -> list[Game]:
    """Round r pairs i with i XOR 2^(r-1) (as `arena bench web`), two games a match, seats swapped;
    random wins, losses and draws weighted toward the lower number."""
    rng = random.Random(seed)
    names = [f"bot{i:04d}" for i in range(entrants)]
    games = []
    for number in range(1, rounds + 1):
        for a in range(entrants):
            b = a ^ (1 << (number - 1))
            if a > b:
                continue
            for first, second in ((a, b), (b, a)):
                u = rng.random()
                edge = 0.5 + 0.3 * (second - first) / entrants
                score = 0.5 if u < 0.2 else 1.0 if u < 0.2 + 0.8 * edge else 0.0
                games.append((names[first], names[second], score))
    return games


def sweep() -> list[Game]:
    """One entrant wins every game and another loses every game: only the prior keeps them finite."""
    games = random_games(5, 5, 120, 0.3)
    games += [("top", f"p{i:02d}", 1.0) for i in range(5)] * 3
    games += [(f"p{i:02d}", "low", 1.0) for i in range(5)] * 3
    return games


CASES: dict[str, tuple[list[Game], dict[str, Any]]] = {
    "six-random": (random_games(3, 6, 600, 0.3), {}),
    "no-seat-ghost": (
        random_games(4, 8, 400, 0.1),
        {
            "entrants": ["ghost"],
            "seat_advantage": False,
            "prior_draws": 0.5,
            "confidence": 0.9,
            "mean_rating": 2000.0,
        },
    ),
    "sweep": (sweep(), {"prior_draws": 2.0}),
    "swiss-64": (xor_swiss(64, 6, 11), {}),
    "swiss-256": (xor_swiss(256, 8, 12), {"confidence": 0.99}),
}


def as_json(fit: BTFit) -> dict[str, Any]:
    """Every number of the fit (floats survive a JSON round trip exactly)."""
    return {
        "estimates": [[e.entrant, e.rating, e.low, e.high, e.games] for e in fit.estimates],
        "seat": [fit.seat_advantage, fit.seat_advantage_low, fit.seat_advantage_high],
        "games": fit.games,
        "confidence": fit.confidence,
    }


def fit_case(name: str) -> BTFit:
    games, options = CASES[name]
    return fit_bradley_terry(games, **options)


if __name__ == "__main__":
    pinned = {name: as_json(fit_case(name)) for name in CASES}
    REFERENCE.write_text(json.dumps(pinned, indent=1) + "\n")  # one number a line: diffable
