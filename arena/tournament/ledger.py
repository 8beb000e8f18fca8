"""Per-entrant, per-round view of a tournament's history (internal helper).

Results and byes arrive as flat lists; pairing, standings and TRF export all need "what did entrant
X do in round r". Building that index once also gives one place to reject unknown entrants and
double bookings, so the three public entry points validate history identically.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from arena.tournament.errors import InvalidHistoryError, check_known
from arena.tournament.model import Bye, ByePoints, Encounter, MatchResult

RoundRecord = Encounter | Bye


@dataclass(frozen=True, slots=True)
class Ledger:
    """`records[entrant][round]` is that entrant's match (own point of view) or bye."""

    entrants: tuple[str, ...]
    records: Mapping[str, Mapping[int, RoundRecord]]
    last_round: int

    def points(self, entrant: str, bye_points: ByePoints) -> float:
        """Match scores plus bye points of `entrant` over all recorded rounds."""
        return sum(record_points(r, bye_points) for r in self.records[entrant].values())

    def encounters(self, entrant: str) -> list[Encounter]:
        """The matches of `entrant` (played and forfeited) in round order."""
        by_round = self.records[entrant]
        return [r for _, r in sorted(by_round.items()) if isinstance(r, Encounter)]

    def byes(self, entrant: str) -> list[Bye]:
        by_round = self.records[entrant]
        return [r for _, r in sorted(by_round.items()) if isinstance(r, Bye)]


def build_ledger(
    entrants: tuple[str, ...], results: Iterable[MatchResult], byes: Iterable[Bye]
) -> Ledger:
    """Index `results` and `byes` by entrant and round; raise on unknown or double-booked entrants.

    `entrants` must already be checked (`check_entrants`).
    """
    known = frozenset(entrants)
    records: dict[str, dict[int, RoundRecord]] = {e: {} for e in entrants}
    last_round = 0
    for result in results:
        for entrant in result.entrants:
            check_known(entrant, known, f"result of round {result.round}")
            _book(records[entrant], result.round, result.view(entrant), entrant)
        last_round = max(last_round, result.round)
    for bye in byes:
        check_known(bye.entrant, known, f"bye of round {bye.round}")
        _book(records[bye.entrant], bye.round, bye, bye.entrant)
        last_round = max(last_round, bye.round)
    return Ledger(entrants, records, last_round)


def _book(by_round: dict[int, RoundRecord], number: int, record: RoundRecord, who: str) -> None:
    if number in by_round:
        raise InvalidHistoryError(f"entrant {who!r} has two records in round {number}")
    by_round[number] = record


def record_points(record: RoundRecord, bye_points: ByePoints) -> float:
    if isinstance(record, Bye):
        return bye_points.points(record.kind)
    return record.score
