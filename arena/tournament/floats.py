"""Float history of a Swiss (FIDE C.04.3 A.4): who was paired out of their score group, and when.

A player floats down in a round when paired with an opponent who had fewer points before that
round (the opponent floats up), and also when the round gave a point without a game: a pairing
bye, a forfeit win, or an absence bye worth a win. Dutch pairing avoids floating the same player
the same way two rounds running, and FIDE's quality criteria (C.14-C.17) look two rounds back.
"""

from __future__ import annotations

from enum import StrEnum

from arena.tournament.ledger import Ledger, RoundRecord, record_points
from arena.tournament.model import WIN, Bye, ByeKind, ByePoints


class Float(StrEnum):
    NONE = "none"
    DOWN = "down"
    UP = "up"


def float_histories(ledger: Ledger, bye_points: ByePoints) -> dict[str, tuple[Float, ...]]:
    """Each entrant's float in rounds 1..`ledger.last_round` (NONE for a round without record)."""
    before = dict.fromkeys(ledger.entrants, 0.0)  # points before the round being read
    floats: dict[str, list[Float]] = {e: [] for e in ledger.entrants}
    for number in range(1, ledger.last_round + 1):
        after = dict(before)
        for entrant in ledger.entrants:
            record = ledger.records[entrant].get(number)
            floats[entrant].append(_float(record, entrant, before, bye_points))
            if record is not None:
                after[entrant] += record_points(record, bye_points)
        before = after
    return {e: tuple(history) for e, history in floats.items()}


def recent_floats(history: tuple[Float, ...]) -> tuple[Float, Float]:
    """(last round's float, the float of the round before it), NONE where there was no round."""
    padded = (Float.NONE, Float.NONE, *history)
    return padded[-1], padded[-2]


def _float(
    record: RoundRecord | None, entrant: str, before: dict[str, float], bye_points: ByePoints
) -> Float:
    if record is None:
        return Float.NONE
    if isinstance(record, Bye):
        full_point = record.kind is ByeKind.PAIRING or bye_points.points(record.kind) == WIN
        return Float.DOWN if full_point else Float.NONE
    if record.forfeit:
        return Float.DOWN if record.score == WIN else Float.NONE
    mine, theirs = before[entrant], before[record.opponent]
    return Float.DOWN if mine > theirs else Float.UP if mine < theirs else Float.NONE
