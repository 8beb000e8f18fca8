"""Duplicate-match statistics."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from arena.bots.random_bot import RandomBot
from arena.games.api import Game, Observation
from arena.games.caper import CAPER
from arena.play.evaluate import duplicate_match


class FirstBot:
    name = "first"

    def choose(
        self,
        game: Game[Any, Any],
        observation: Observation,
        legal: Sequence[Any],
        rng: random.Random,
    ) -> Any:
        return legal[0]


def test_a_bot_against_itself_draws_every_pair() -> None:
    # Seats are swapped on the same deal, so identical play must cancel exactly.
    stats = duplicate_match(CAPER, {"city": "rome"}, [1, 2, 3], FirstBot(), FirstBot())
    assert (stats.pair_wins, stats.pair_draws, stats.pair_losses) == (0, 3, 0)
    assert stats.margins == (0, 0, 0)
    assert stats.mean_margin == 0
    assert stats.games == 6


def test_counts_add_up() -> None:
    stats = duplicate_match(CAPER, {"city": "paris"}, range(5), RandomBot(), FirstBot())
    assert stats.pairs == 5
    assert stats.games == 10
    assert 0 <= stats.game_wins <= 10
    assert stats.pair_wins == sum(m > 0 for m in stats.margins)
    assert abs(sum(stats.margins) / stats.games - stats.mean_margin) < 1e-9
    assert stats.pair_win_rate == stats.pair_wins / 5
    assert stats.game_win_rate == stats.game_wins / 10


def test_no_seeds_give_empty_stats() -> None:
    stats = duplicate_match(CAPER, {"city": "paris"}, [], RandomBot(), RandomBot())
    assert stats.pairs == stats.games == 0
    assert stats.pair_win_rate == stats.game_win_rate == stats.mean_margin == 0.0


def test_a_match_replays_exactly() -> None:
    # Bots draw only from the referee's per-seat generators, so a match is a pure function.
    runs = [
        duplicate_match(CAPER, {"city": "london"}, [7, 8], RandomBot(), RandomBot())
        for _ in range(2)
    ]
    assert runs[0] == runs[1]
