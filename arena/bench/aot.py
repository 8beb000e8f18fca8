"""How the built-in bots play Age of Thieves, measured over games with one bot against copies of
another (four players unless told), seats rotated game by game (section 19 decides the winner),
on the current board or an earlier one. It measures and reports, it never asserts:

    arena bench aot --games 200 greedy random
    arena bench aot --games 400 --players 2 --board hadria-r1 greedy random
    arena bench aot --games 40 search#8 greedy
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from arena.bots import Bot, make_bot
from arena.games.age_of_thieves.game import AGE_OF_THIEVES
from arena.games.age_of_thieves.hadria import CURRENT_BOARD
from arena.games.api import Game, Observation, Result
from arena.play.local import play_game

PLAYERS = 4


@dataclass(frozen=True, slots=True)
class Figures:
    """One bot (`hero`) in one seat against `field` in the others, over `games` games."""

    players: int
    board: str
    hero: str
    field: str
    games: int
    hero_wins: int
    field_wins: int  # won by one of the other seats
    everyone_loses: int
    ej_wins: int  # won by escaping with the Emperor's Jewel
    rounds: int  # summed over the games
    hero_cpu: float = 0.0  # CPU seconds the hero spent deciding, summed over the games

    @property
    def hero_share(self) -> float:
        return self.hero_wins / self.games if self.games else 0.0

    @property
    def field_share_per_seat(self) -> float:
        """The win share of one field seat, comparable with `hero_share`."""
        return self.field_wins / (self.players - 1) / self.games if self.games else 0.0

    @property
    def hero_cpu_per_game(self) -> float:
        return self.hero_cpu / self.games if self.games else 0.0

    @property
    def mean_rounds(self) -> float:
        return self.rounds / self.games if self.games else 0.0

    def line(self) -> str:
        share = self.games or 1
        return (
            f"{self.board}, {self.hero} vs {self.players - 1}x {self.field}, {self.games} games: "
            f"{self.hero} wins "
            f"{self.hero_share:.1%}, each {self.field} seat {self.field_share_per_seat:.1%}; "
            f"everybody loses {self.everyone_loses / share:.1%}; won with the Emperor's Jewel "
            f"{self.ej_wins / share:.1%}; mean length {self.mean_rounds:.2f} rounds; "
            f"{self.hero} CPU {self.hero_cpu_per_game:.2f} s a game"
        )


def one_against_three(
    hero: str,
    field: str,
    games: int,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
    players: int = PLAYERS,
    board: str = CURRENT_BOARD,
) -> Figures:
    """`games` games of `players` on `board`, game k dealt from seed + k with `hero` in seat
    k mod players and fresh bots in every seat."""
    hero_wins = field_wins = losers = ej = rounds = 0
    cpu = 0.0
    config: dict[str, str | int] = {"players": players, "board": board}
    for k in range(games):
        seat = k % players
        timed = Timed(make_bot(hero))
        bots = [timed if s == seat else make_bot(field) for s in range(players)]
        result = play_game(AGE_OF_THIEVES, config, seed + k, bots).result
        cpu += timed.cpu
        hero_wins += result.winner == seat
        field_wins += result.winner is not None and result.winner != seat
        losers += result.winner is None
        ej += _with_jewel(result)
        rounds += int(result.details["rounds"])
        if progress is not None:
            progress(k + 1)
    return Figures(
        players, board, hero, field, games, hero_wins, field_wins, losers, ej, rounds, cpu
    )


class Timed:
    """A bot that counts the CPU time it spends choosing."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.cpu = 0.0

    def choose(
        self, game: Game[Any, Any], observation: Observation, legal: Sequence[Any], rng: Random
    ) -> Any:
        started = time.process_time()
        try:
            return self.bot.choose(game, observation, legal, rng)
        finally:
            self.cpu += time.process_time() - started


def _with_jewel(result: Result) -> bool:
    return bool(result.details.get("emperors_jewel"))


def run(
    hero: str,
    field: str,
    games: int,
    seed: int,
    report: Callable[[str], object],
    players: int = PLAYERS,
    board: str = CURRENT_BOARD,
) -> None:
    """`arena bench aot`: `ValueError` naming an unknown bot before any game is played."""
    for name in (hero, field):
        make_bot(name)
    started = time.perf_counter()
    figures = one_against_three(hero, field, games, seed, players=players, board=board)
    report(f"{figures.line()} ({time.perf_counter() - started:.0f} s)")
