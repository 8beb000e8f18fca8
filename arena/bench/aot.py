"""How the built-in bots play Age of Thieves, measured over games with one bot against copies of
another (four players unless told), seats rotated game by game (section 19 decides the winner),
on the current board or an earlier one. It measures and reports, it never asserts:

    arena bench aot --games 200 greedy random
    arena bench aot --games 400 --players 2 --board hadria-r1 greedy random
    arena bench aot --games 40 search#8 greedy
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from arena.bots import make_bot
from arena.games.age_of_thieves.game import AGE_OF_THIEVES
from arena.games.age_of_thieves.hadria import CURRENT_BOARD
from arena.games.api import Result
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

    @property
    def hero_share(self) -> float:
        return self.hero_wins / self.games if self.games else 0.0

    @property
    def field_share_per_seat(self) -> float:
        """The win share of one field seat, comparable with `hero_share`."""
        return self.field_wins / (self.players - 1) / self.games if self.games else 0.0

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
            f"{self.ej_wins / share:.1%}; mean length {self.mean_rounds:.2f} rounds"
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
    config: dict[str, str | int] = {"players": players, "board": board}
    for k in range(games):
        seat = k % players
        names = [hero if s == seat else field for s in range(players)]
        bots = [make_bot(name) for name in names]
        result = play_game(AGE_OF_THIEVES, config, seed + k, bots).result
        hero_wins += result.winner == seat
        field_wins += result.winner is not None and result.winner != seat
        losers += result.winner is None
        ej += _with_jewel(result)
        rounds += int(result.details["rounds"])
        if progress is not None:
            progress(k + 1)
    return Figures(players, board, hero, field, games, hero_wins, field_wins, losers, ej, rounds)


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
