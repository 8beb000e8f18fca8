"""The Age of Thieves targets for a fair start and for bots that play the game, measured in one
run (`arena bench aot` with no bots named): each row a figure over `games` games on the current
board, seats rotated, beside its target. It measures and reports, it never asserts.

The 2-player search row plays duplicate pairs: each deal twice, the search in seat 0 and then
in seat 1, so both bots play the same cards and dice. A pair is won by the bot that won more of
its two games (a game nobody wins counts for neither). The row is judged on the pair score (a
pair won 1, tied 1/2), the 2-player counterpart of the 4-player row's win share: between equal
bots either comes to the fair share (1/2 of the pair points, 1/4 of the wins), and each target
asks 10 points more. The pairs won alone cannot be read that way: the deal ties most pairs
whoever plays them, so their fair share is not known in advance. The line gives the pairs won,
tied and lost beside the score, its standard error and the Elo difference it stands for.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from arena.bench.aot import Figures, Timed, one_against_three
from arena.bots import make_bot
from arena.games.age_of_thieves.game import AGE_OF_THIEVES
from arena.games.age_of_thieves.hadria import CURRENT_BOARD
from arena.play.local import play_game
from arena.ratings import elo_difference

SEARCH = "search"  # at its default budget


@dataclass(frozen=True, slots=True)
class Row:
    measure: str
    games: int
    figure: str
    target: str
    met: bool


@dataclass(frozen=True, slots=True)
class Pairs:
    """`pairs` duplicate pairs of 2-player games, `hero` against `field`."""

    hero: str
    field: str
    pairs: int
    won: int
    tied: int
    lost: int
    hero_cpu: float  # CPU seconds the hero spent deciding, over all the games

    @property
    def won_share(self) -> float:
        return self.won / self.pairs if self.pairs else 0.0

    @property
    def score(self) -> float:
        """The hero's share of the pair points, a tied pair counting half."""
        return (self.won + self.tied / 2) / self.pairs if self.pairs else 0.0

    @property
    def score_error(self) -> float:
        """The standard error of the pair score, from the spread of the pairs' points."""
        if self.pairs < 2:
            return 0.0
        points = [1.0] * self.won + [0.5] * self.tied + [0.0] * self.lost
        return statistics.stdev(points) / math.sqrt(self.pairs)

    @property
    def hero_cpu_per_game(self) -> float:
        return self.hero_cpu / (2 * self.pairs) if self.pairs else 0.0

    def line(self) -> str:
        elo = elo_difference(self.score) + 0.0  # an even score reads +0, not -0
        return (
            f"{self.hero} vs {self.field}, 2 players, {self.pairs} duplicate pairs "
            f"({2 * self.pairs} games): {self.hero} wins {self.won_share:.1%} of the pairs, "
            f"ties {self.tied}, loses {self.lost}; pair score {self.score:.1%} "
            f"± {self.score_error:.1%} (Elo {elo:+.0f}); {self.hero} CPU "
            f"{self.hero_cpu_per_game:.2f} s a game"
        )


def run_pairs(
    hero: str,
    field: str,
    games: int,
    seed: int,
    report: Callable[[str], object],
    board: str = CURRENT_BOARD,
) -> None:
    """`arena bench aot --duplicate`: `games` games in pairs; `ValueError` naming an unknown
    bot before any game is played."""
    for name in (hero, field):
        make_bot(name)
    report(duplicate_pairs(hero, field, max(games // 2, 1), seed, board).line())


def duplicate_pairs(
    hero: str, field: str, pairs: int, seed: int = 0, board: str = CURRENT_BOARD
) -> Pairs:
    """Pair p deals seed + p twice: `hero` in seat 0, then in seat 1."""
    won = tied = lost = 0
    cpu = 0.0
    config: dict[str, str | int] = {"players": 2, "board": board}
    for p in range(pairs):
        margin = 0
        for seat in (0, 1):
            timed = Timed(make_bot(hero))
            bots = [timed, make_bot(field)] if seat == 0 else [make_bot(field), timed]
            winner = play_game(AGE_OF_THIEVES, config, seed + p, bots).result.winner
            cpu += timed.cpu
            margin += (winner == seat) - (winner == 1 - seat)
        won += margin > 0
        tied += margin == 0
        lost += margin < 0
    return Pairs(hero, field, pairs, won, tied, lost, cpu)


def target_rows(
    games: int, seed: int = 0, progress: Callable[[str], object] | None = None
) -> Iterator[Row]:
    """The six target rows, each yielded as soon as it is measured."""
    note = progress or (lambda _: None)

    def rotated(hero: str, field: str, players: int) -> Figures:
        note(f"{hero} vs {field}, {players} players, {games} games")
        return one_against_three(hero, field, games, seed, players=players)

    crowd = rotated("greedy", "greedy", 4)
    share = crowd.everyone_loses / crowd.games
    yield Row("4 greedy: everybody loses", games, f"{share:.1%}", "<= 5%", share <= 0.05)
    alone = rotated("greedy", "random", 4)
    yield _at_least("1 greedy vs 3 random: greedy wins", games, alone.hero_share, 0.40)
    duel = rotated("greedy", "random", 2)
    winners = 1 - duel.everyone_loses / duel.games
    yield _at_least("2 players greedy vs random: a winner", games, winners, 0.80)
    search = rotated(SEARCH, "greedy", 4)
    yield _at_least("1 search vs 3 greedy: search wins", games, search.hero_share, 0.35)
    note(f"{SEARCH} vs greedy, duplicate pairs, {games // 2} pairs")
    pairs = duplicate_pairs(SEARCH, "greedy", max(games // 2, 1), seed)
    yield pair_row(pairs)
    cpu = (search.hero_cpu + pairs.hero_cpu) / (search.games + 2 * pairs.pairs)
    yield Row(
        "search CPU a game, default budget",
        search.games + 2 * pairs.pairs,
        f"{cpu:.2f} s",
        "<= 1 s",
        cpu <= 1.0,
    )


def pair_row(pairs: Pairs) -> Row:
    """The 2-player search row: judged on the pair score, the pairs won beside it."""
    figure = (
        f"{pairs.score:.1%} ± {pairs.score_error:.1%} (pairs won {pairs.won_share:.1%}, "
        f"tied {pairs.tied}, lost {pairs.lost})"
    )
    measure = f"2 players {pairs.hero} vs {pairs.field}: duplicate pair score"
    return Row(measure, 2 * pairs.pairs, figure, ">= 60%", pairs.score >= 0.60)


def _at_least(measure: str, games: int, share: float, target: float) -> Row:
    return Row(measure, games, f"{share:.1%}", f">= {target:.0%}", share >= target)
