"""Table results scored by placement, and the standings of a tournament of tables.

A table is k entrants (k >= 2) in seat order; its result is each entrant's game points (for a
duplicate table, the sum over its k seat rotations). Places follow game points, higher first, and
score normalised placement points: with k entrants the place p earns (k - p) / (k - 1), so first
scores 1, last 0 and the places between are evenly spaced (3 players: 1, 1/2, 0; 4 players: 1,
2/3, 1/3, 0). Tied entrants share the mean of the places they span, so every table hands out k/2
points in total whatever the ties, and a table of two scores exactly like a match (1, 1/2, 0).

A bye scores `bye_points` (default 1/2: the mean a table hands out, so a bye neither rewards nor
punishes the entrant who sits out).

Standings order: placement points, then wins (tables finished first, a shared first included),
then average game points a table played, then head-to-head (among the entrants still level, the
places each took against the others at the tables they shared), then seeding order.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby

from arena.stats import ranks
from arena.tournament.errors import (
    InvalidHistoryError,
    InvalidOptionError,
    InvalidResultError,
    check_entrants,
    check_known,
)

DEFAULT_BYE_POINTS = 0.5


@dataclass(frozen=True, slots=True)
class TableResult:
    """The game points of each entrant at one table; `entrants` is in seat order."""

    round: int
    entrants: tuple[str, ...]
    scores: tuple[float, ...]

    def __post_init__(self) -> None:
        _check_round_number(self.round)
        if len(self.entrants) < 2:
            raise InvalidResultError(f"a table needs at least 2 entrants, got {self.entrants}")
        if len(set(self.entrants)) != len(self.entrants):
            raise InvalidResultError(f"an entrant sits twice at the table {self.entrants}")
        if len(self.scores) != len(self.entrants):
            raise InvalidResultError(
                f"{len(self.entrants)} entrants but {len(self.scores)} scores at {self.entrants}"
            )
        for value in self.scores:
            if not math.isfinite(value):
                raise InvalidResultError(f"game points must be finite, got {value!r}")

    @property
    def places(self) -> tuple[float, ...]:
        """Each entrant's place (1 = first); tied entrants share the mean of their places."""
        return placements(self.scores)

    @property
    def points(self) -> tuple[float, ...]:
        """Each entrant's placement points (see the module docstring)."""
        return placement_points(self.scores)


@dataclass(frozen=True, slots=True)
class TableBye:
    """An entrant left out of every table in `round`."""

    round: int
    entrant: str

    def __post_init__(self) -> None:
        _check_round_number(self.round)


def placements(scores: Sequence[float]) -> tuple[float, ...]:
    """Places for `scores` (higher is better): 1 for the best; ties share the mean place."""
    return ranks(scores)


def placement_points(scores: Sequence[float]) -> tuple[float, ...]:
    """Placement points for `scores`: (k - place) / (k - 1), ties sharing the mean."""
    k = len(scores)
    if k < 2:
        raise InvalidResultError(f"a table needs at least 2 entrants, got {k}")
    return tuple((k - place) / (k - 1) for place in placements(scores))


def rotations(table: Sequence[str]) -> list[tuple[str, ...]]:
    """The k seat orders of a duplicate table: each entrant sits in every seat once (V12)."""
    seats = tuple(table)
    return [seats[-shift:] + seats[:-shift] if shift else seats for shift in range(len(seats))]


def duplicate_result(
    round: int, table: Sequence[str], games: Sequence[Sequence[float]]
) -> TableResult:
    """One result for a duplicate table: `games[r]` are the game points by seat of the deal
    played in `rotations(table)[r]`; each entrant scores its total over the rotations."""
    orders = rotations(table)
    if len(games) != len(orders):
        raise InvalidResultError(f"a duplicate table of {len(orders)} plays {len(orders)} games")
    totals = dict.fromkeys(orders[0], 0.0)
    for order, points in zip(orders, games, strict=True):
        if len(points) != len(order):
            raise InvalidResultError(f"{len(order)} seats but {len(points)} scores in {points}")
        for entrant, value in zip(order, points, strict=True):
            totals[entrant] += value
    return TableResult(round, orders[0], tuple(totals.values()))


@dataclass(frozen=True, slots=True)
class TableStanding:
    """One line of the standings of a tournament of tables."""

    rank: int
    entrant: str
    points: float  # placement points plus bye points
    tables: int  # tables played (byes not counted)
    wins: int  # tables finished first, a shared first included
    average_score: float  # mean game points a table played; 0 before the first table
    byes: int
    head_to_head: float  # see `_head_to_head`; 0 unless level on everything before it
    seats: tuple[int, ...]  # tables played in each seat (as long as the largest table)


def table_standings(
    entrants: Sequence[str],
    results: Iterable[TableResult],
    byes: Iterable[TableBye] = (),
    bye_points: float = DEFAULT_BYE_POINTS,
) -> list[TableStanding]:
    """Standings, best first (module docstring). `entrants` is in seeding order."""
    players = check_entrants(entrants)
    check_bye_points(bye_points)
    results, byes = list(results), list(byes)
    check_history(players, results, byes)
    lines, tables_of = _tally(players, results)
    for bye in byes:
        lines[bye.entrant].points += bye_points
        lines[bye.entrant].byes += 1
    seed = {e: i for i, e in enumerate(players)}
    order = sorted(players, key=lambda e: (*lines[e].key(), seed[e]))
    head_to_head = dict.fromkeys(players, 0.0)
    for _, group in groupby(order, key=lambda e: lines[e].key()):
        tied = list(group)
        if len(tied) > 1:
            head_to_head.update(_head_to_head(tied, tables_of))
    order.sort(key=lambda e: (*lines[e].key(), -head_to_head[e], seed[e]))
    return [lines[e].standing(rank, e, head_to_head[e]) for rank, e in enumerate(order, 1)]


def _tally(
    players: Sequence[str], results: Sequence[TableResult]
) -> tuple[dict[str, _Line], dict[str, list[_Placed]]]:
    """Each entrant's totals over its tables, and the places at each of its tables."""
    width = max((len(r.entrants) for r in results), default=0)
    lines = {e: _Line(width) for e in players}
    tables_of: dict[str, list[_Placed]] = {e: [] for e in players}
    for result in results:
        placed = dict(zip(result.entrants, result.places, strict=True))
        top = max(result.scores)
        for seat, (entrant, score, points) in enumerate(
            zip(result.entrants, result.scores, result.points, strict=True)
        ):
            lines[entrant].add_table(seat, score, points, score == top)
            tables_of[entrant].append(placed)
    return lines, tables_of


def check_bye_points(value: float) -> None:
    if not 0 <= value <= 1:
        raise InvalidOptionError(f"bye points must be between 0 and 1, got {value!r}")


def check_history(
    players: Sequence[str], results: Iterable[TableResult], byes: Iterable[TableBye]
) -> None:
    """Reject unknown entrants and anyone booked twice in one round."""
    known = frozenset(players)
    booked: set[tuple[int, str]] = set()
    records = [(r.round, e) for r in results for e in r.entrants]
    for round_, entrant in records + [(b.round, b.entrant) for b in byes]:
        check_known(entrant, known, f"round {round_}")
        if (round_, entrant) in booked:
            raise InvalidHistoryError(f"entrant {entrant!r} has two records in round {round_}")
        booked.add((round_, entrant))


class _Line:
    """An entrant's running totals while the standings are built."""

    def __init__(self, width: int) -> None:
        self.points = 0.0
        self.tables = self.wins = self.byes = 0
        self.total_score = 0.0
        self.seats = [0] * width

    def add_table(self, seat: int, score: float, points: float, won: bool) -> None:
        self.points += points
        self.tables += 1
        self.wins += won
        self.total_score += score
        self.seats[seat] += 1

    @property
    def average_score(self) -> float:
        return self.total_score / self.tables if self.tables else 0.0

    def key(self) -> tuple[float, int, float]:
        """Sort key, best first, before head-to-head."""
        return (-self.points, -self.wins, -self.average_score)

    def standing(self, rank: int, entrant: str, head_to_head: float) -> TableStanding:
        return TableStanding(
            rank, entrant, self.points, self.tables, self.wins, self.average_score,
            self.byes, head_to_head, tuple(self.seats),
        )  # fmt: skip


_Placed = Mapping[str, float]  # one table's places by entrant


def _head_to_head(
    tied: Sequence[str], tables_of: Mapping[str, Sequence[_Placed]]
) -> Mapping[str, float]:
    """For each tied entrant: 1 for every other tied entrant it finished ahead of at a shared
    table, 1/2 for a shared place, summed over those tables."""
    group = set(tied)
    return {
        entrant: sum(
            1.0
            if places[entrant] < places[other]
            else 0.5
            if places[entrant] == places[other]
            else 0.0
            for places in tables_of[entrant]
            for other in places
            if other in group and other != entrant
        )
        for entrant in tied
    }


def _check_round_number(number: int) -> None:
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise InvalidResultError(f"round numbers start at 1, got {number!r}")
