"""Swiss-style pods: each round, tables of k entrants of similar standing who have not met.

Ranking: the table standings so far (placement points, wins, average score, head-to-head,
seeding), so round 1 follows the seeding. Byes: when k does not divide the field, n % k
entrants sit out; each bye goes to the lowest-ranked entrant among those with fewest byes so far,
and scores `bye_points` (see `placement`). Tables: the rest is split (`grouping.partition`) so
that, first, pairs who have already shared a table meet again as rarely as possible (in a field
of at most 12 this is exactly the least possible), then nobody has to take a seat it has used
twice more than its least used one, then scores inside a table are as close as possible (squared
differences of placement points), then seat histories fit best, then the ranking order is kept.
Each table is seated so that its entrants get the seats they have used least. Deterministic: no
randomness.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from arena.tournament.errors import InvalidHistoryError, check_entrants, check_known
from arena.tournament.grouping import Field, Meetings, partition
from arena.tournament.placement import (
    DEFAULT_BYE_POINTS,
    TableBye,
    TableResult,
    check_bye_points,
    table_standings,
)
from arena.tournament.tables import TableRound, check_field, seat_counts


@dataclass(frozen=True, slots=True)
class PodHistory:
    """Everything recorded so far: table results and byes of the earlier rounds."""

    results: tuple[TableResult, ...] = ()
    byes: tuple[TableBye, ...] = ()


def pair_pods(
    entrants: Sequence[str],
    history: PodHistory,
    round_number: int,
    size: int,
    *,
    bye_points: float = DEFAULT_BYE_POINTS,
    withdrawn: Collection[str] = (),
) -> TableRound:
    """Tables of `size` for round `round_number` (module docstring).

    `entrants` is everyone who ever entered, in seeding order; the `withdrawn` among them keep
    their history (it still ranks the others and counts their meetings) but are not seated.
    """
    players = check_entrants(entrants)
    for entrant in withdrawn:
        check_known(entrant, frozenset(players), "the withdrawn list")
    check_field([e for e in players if e not in withdrawn], size)
    check_bye_points(bye_points)
    last = max([r.round for r in history.results] + [b.round for b in history.byes], default=0)
    if round_number <= last:
        raise InvalidHistoryError(f"round {round_number} is already on record (up to {last})")
    standings = table_standings(players, history.results, history.byes, bye_points)
    ranked = [s.entrant for s in standings if s.entrant not in withdrawn]
    points = {s.entrant: s.points for s in standings}
    resting = _byes(ranked, history.byes, len(ranked) % size)
    playing = [e for e in ranked if e not in resting]
    seated = [r.entrants for r in history.results]
    where = Field(Meetings(seated), points, seat_counts(seated))
    tables = tuple(partition(playing, size, where))
    return TableRound(round_number, tables, tuple(e for e in ranked if e in resting))


def _byes(ranked: Sequence[str], byes: Sequence[TableBye], count: int) -> set[str]:
    """The `count` lowest-ranked entrants among those with fewest byes, taken one at a time."""
    had = Counter(bye.entrant for bye in byes)
    bottom_up = sorted(range(len(ranked)), key=lambda i: (had[ranked[i]], -i))
    return {ranked[i] for i in bottom_up[:count]}
