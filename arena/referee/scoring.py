"""Scoring an encounter of k sides from its games: a pair (k = 2, a team being one side) or a
table (k >= 3, the Snitch game: V12), and what each entrant of either did.

Both deal in units: a duplicate deal (its k games, one per rotation of the seats, so luck
cancels) or, without duplicates, each game alone. A unit is worth 1 point between the two sides
of a pair and k/2 points at a table of k, shared by rank:

- a pair (`score_match`) gives the unit to whoever won more of its games, else to whoever scored
  more card points over them, else half each;
- a table (`score_table`) ranks its entrants by the placement points they took in the unit's
  games (a game's place p is worth (k - p) / (k - 1): the winner first, the others by score, a
  faulty seat last), then by their card points over those games, and each takes the placement
  points of its rank (ties split). With k = 2 this is the pair's rule but for games nobody won
  (Age of Thieves' "everyone loses"): a pair counts wins only, a table also places the losers by
  score; pairs keep their rule so that stored results keep their meaning.

An entrant's table score is the sum over the units: what `TableResult` ranks the table by.
`table_size` is where an event learns whether it seats pairs or tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arena.games.api import Config, Game, Result
from arena.referee.referee import GameOutcome, Termination
from arena.referee.seats import Layout, SideResult, layout, side_results
from arena.stats import ranks


@dataclass(frozen=True, slots=True)
class MatchScore:
    game_points: tuple[float, float]  # per player, in `players` order
    margin: int  # card points of the first player minus the second's, normal games only
    forfeit: bool  # some game was lost by a fault rather than played out, and one side won


def score_match(
    outcomes: Sequence[GameOutcome], players: Sequence[str], duplicate: bool
) -> MatchScore:
    """Game points per player. Without duplicates, a won game is worth 1. With duplicates, each
    deal's pair of games is worth 1: to whoever won more of the two games, else to whoever
    scored more card points over both, else half each. Two sides only (a team plays both its
    seats): tables of three are scored by `score_entrants`."""
    if len(players) != 2:
        raise ValueError(f"a match is scored between 2 players, not {len(players)}")
    units = (
        [outcomes[i : i + 2] for i in range(0, len(outcomes), 2)]
        if duplicate
        else [[o] for o in outcomes]
    )
    points = [0.0, 0.0]
    for unit in units:
        wins = [sum(_won(o, name) for o in unit) for name in players]
        margin = sum(_margin(o, players) for o in unit)
        lead = wins[0] - wins[1] if wins[0] != wins[1] else margin
        if lead > 0:
            points[0] += 1
        elif lead < 0:
            points[1] += 1
        else:
            points[0] += 0.5
            points[1] += 0.5
    # A forfeit has a winner: two sides that faulted alike (two absent bots) drew the match.
    faulted = any(o.termination is not Termination.NORMAL for o in outcomes)
    return MatchScore(
        (points[0], points[1]),
        sum(_margin(o, players) for o in outcomes),
        faulted and points[0] != points[1],
    )


def _won(outcome: GameOutcome, player: str) -> int:
    winner = outcome.result.winner
    return int(winner is not None and outcome.record.players[winner] == player)


def _margin(outcome: GameOutcome, players: Sequence[str]) -> int:
    if outcome.termination is not Termination.NORMAL:
        return 0
    seat = outcome.record.players.index(players[0])
    scores = outcome.result.scores
    return scores[seat] - scores[1 - seat]


@dataclass(frozen=True, slots=True)
class EntrantScore:
    """What one entrant did over the games of a match or table."""

    name: str
    games: int
    score: int  # its side's points over the games (a forfeited game scores 0 for everyone)
    placement: float  # mean place, 1 for first (`seats.placements`: ties share)
    wins: int  # games its side won, a win shared by the sides not at fault included

    @property
    def mean_score(self) -> float:
        return self.score / self.games if self.games else 0.0


def score_entrants(
    results: Sequence[Result], lineups: Sequence[Sequence[str]], seating: Layout
) -> list[EntrantScore]:
    """Each entrant's totals, in order of first appearance; `lineups[i]` names the entrant of
    each side in game i (`seats.lineup`)."""
    played: dict[str, list[SideResult]] = {}
    for result, entrants in zip(results, lineups, strict=True):
        for name, side in zip(entrants, side_results(result, seating), strict=True):
            played.setdefault(name, []).append(side)
    return [
        EntrantScore(
            name,
            len(sides),
            sum(side.score for side in sides),
            sum(side.place for side in sides) / len(sides),
            sum(side.won for side in sides),
        )
        for name, sides in played.items()
    ]


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
