"""Scoring a match from its games: duplicate pairs are compared as pairs, luck cancelled; and
what each entrant of a match or table did: its points, places and wins."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arena.games.api import Result
from arena.referee.referee import GameOutcome, Termination
from arena.referee.seats import Layout, SideResult, side_results


@dataclass(frozen=True, slots=True)
class MatchScore:
    game_points: tuple[float, float]  # per player, in `players` order
    margin: int  # card points of the first player minus the second's, normal games only
    forfeit: bool  # some game was lost by a fault rather than played out


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
    return MatchScore(
        (points[0], points[1]),
        sum(_margin(o, players) for o in outcomes),
        any(o.termination is not Termination.NORMAL for o in outcomes),
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
