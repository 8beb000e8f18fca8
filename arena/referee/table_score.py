"""Scoring a table of a game of three or more sides from its games (V12).

A duplicate table plays each deal once per rotation of the seats, so every entrant plays every
seat of the same cards. Each deal is a unit worth k/2 points at a table of k, as a duplicate pair
is worth one point between two: the entrants are ranked by the placement points they took in the
deal's games (a game's place (k - place) / (k - 1): the winner first, the others by score, a
faulty seat last), then by the card points they scored over those games, and each takes the
placement points of its rank in the deal (ties split). With k = 2 this is `score_match`'s rule.
Without duplicates every game is a unit of its own.

An entrant's table score is the sum over the units: what `TableResult` ranks the table by.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arena.games.api import Config, Game, Result
from arena.referee.seats import Layout, layout, side_results
from arena.stats import ranks


@dataclass(frozen=True, slots=True)
class TableScore:
    """What each entrant of a table did, in the table's seat order (`entrants`)."""

    entrants: tuple[str, ...]
    points: tuple[float, ...]  # game points: the placement points of each unit, summed
    cards: tuple[int, ...]  # card points over every game (a forfeited game scores 0)
    wins: tuple[int, ...]  # games won, a win shared by the sides not at fault included


def score_table(
    entrants: Sequence[str],
    games: Sequence[tuple[Result, Sequence[str]]],
    seating: Layout,
    duplicate: bool,
) -> TableScore:
    """`games[i]` is game i's result and the entrant in each of its seats, in the order played;
    `entrants` names the table in seat order."""
    k = len(entrants)
    size = k if duplicate else 1
    points = dict.fromkeys(entrants, 0.0)
    cards = dict.fromkeys(entrants, 0)
    wins = dict.fromkeys(entrants, 0)
    for start in range(0, len(games), size):
        unit: dict[str, list[float]] = {e: [0.0, 0.0] for e in entrants}
        for result, seat_names in games[start : start + size]:
            for side, done in zip(seating.sides, side_results(result, seating), strict=True):
                name = seat_names[side[0]]
                unit[name][0] += (k - done.place) / (k - 1)
                unit[name][1] += done.score
                cards[name] += done.score
                wins[name] += done.won
        keys = [tuple(unit[e]) for e in entrants]
        for entrant, place in zip(entrants, ranks(keys), strict=True):
            points[entrant] += (k - place) / (k - 1)
    return TableScore(
        tuple(entrants),
        tuple(points[e] for e in entrants),
        tuple(cards[e] for e in entrants),
        tuple(wins[e] for e in entrants),
    )


def table_size(game: Game[Any, Any], config: Config) -> int:
    """Entrants at a table of `game` set up with `config`: its number of sides when there are
    three or more (the Snitch game), else 0 (two-sided matches, teams included)."""
    sides = len(layout(game, config).sides)
    return sides if sides > 2 else 0
