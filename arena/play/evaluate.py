"""Duplicate matches between two bots: each seed is played twice with seats swapped, so the luck
of the deal cancels and a pair is won on the summed point margin over its two games."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from arena.bots.base import Bot
from arena.games.api import Config, Game, Result
from arena.play.local import play_duplicate_pair


@dataclass(frozen=True, slots=True)
class PairStats:
    """Everything is counted from bot A's side; `margins` holds A's summed margin per pair."""

    pair_wins: int
    pair_draws: int
    pair_losses: int
    game_wins: int
    games: int
    mean_score_a: float
    mean_score_b: float
    margins: tuple[int, ...]

    @property
    def pairs(self) -> int:
        return self.pair_wins + self.pair_draws + self.pair_losses

    @property
    def pair_win_rate(self) -> float:
        return self.pair_wins / self.pairs if self.pairs else 0.0

    @property
    def game_win_rate(self) -> float:
        return self.game_wins / self.games if self.games else 0.0

    @property
    def mean_margin(self) -> float:
        """A's mean point margin per game."""
        return self.mean_score_a - self.mean_score_b


def duplicate_match(
    game: Game[Any, Any], config: Config, seeds: Iterable[int], bot_a: Bot, bot_b: Bot
) -> PairStats:
    """Play one duplicate pair per seed; bot A sits in seat 0 of each pair's first game."""
    margins: list[int] = []
    wins = games = score_a = score_b = 0
    for seed in seeds:
        first, second = play_duplicate_pair(game, config, seed, bot_a, bot_b)
        margin = 0
        for result, seat in ((first.result, 0), (second.result, 1)):
            own, other = _scores(result, seat)
            margin += own - other
            score_a, score_b = score_a + own, score_b + other
            wins += result.winner == seat
            games += 1
        margins.append(margin)
    return PairStats(
        pair_wins=sum(m > 0 for m in margins),
        pair_draws=sum(m == 0 for m in margins),
        pair_losses=sum(m < 0 for m in margins),
        game_wins=wins,
        games=games,
        mean_score_a=score_a / games if games else 0.0,
        mean_score_b=score_b / games if games else 0.0,
        margins=tuple(margins),
    )


def _scores(result: Result, seat: int) -> tuple[int, int]:
    return result.scores[seat], result.scores[1 - seat]
