"""Export a tournament as a FIDE TRF-16 report, for audit with standard pairing checkers.

Layout of a `001` player line (1-based columns, FIDE C.04 Annex 2):

    1-3 "001"   5-8 start rank   15-47 name   81-84 points   86-89 rank
    then one 10-column block per round: 92-95 opponent, 97 seat (w/b/-), 99 result

Seat 0 is written as white (`w`), seat 1 as black (`b`). Results: `1 = 0` for played matches
(match score, so a 1.5 : 0.5 duplicate pair is `1` / `0`), `+ -` for forfeits, `U` for a
pairing-allocated bye, `Z`/`H`/`F` for a zero/half/full-point absence bye, and `0000 - -` for a
round with no record (after a withdrawal). Extension lines understood by bbpPairings and JaVaFo:
`XXR` (planned rounds; the recorded rounds when the plan is not given), `XXP` (a forbidden pair)
and `BBU` (pairing-bye points, when not 1, right-aligned in columns 5-8 like every BB line).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from arena.tournament.errors import InvalidOptionError, check_entrants, check_known
from arena.tournament.ledger import RoundRecord, build_ledger
from arena.tournament.model import DRAW, LOSS, WIN, Bye, ByeKind, ByePoints, MatchResult
from arena.tournament.standings import Tiebreak, standings

NAME_WIDTH = 33  # columns 15-47
MAX_START_RANK = 9999  # four columns
MAX_POINTS = 99.9  # four columns with one decimal

_PLAYED_CODE = {WIN: "1", DRAW: "=", LOSS: "0"}
_ABSENCE_CODE = {LOSS: "Z", DRAW: "H", WIN: "F"}


def export_trf(
    entrants: Sequence[str],
    results: Iterable[MatchResult],
    byes: Iterable[Bye] = (),
    *,
    through_round: int | None = None,
    total_rounds: int | None = None,
    tournament_name: str = "Caper Arena",
    bye_points: ByePoints | None = None,
    forbidden_pairs: Iterable[tuple[str, str]] = (),
    tiebreaks: Sequence[Tiebreak] = (),
) -> str:
    """The TRF-16 text of rounds 1..`through_round` (default: all recorded rounds).

    Start ranks follow the order of `entrants` (the seed order); the rank column is the position
    in the standings with `tiebreaks` (remaining ties broken by seed, since TRF ranks are unique).
    """
    players = check_entrants(entrants)
    if len(players) > MAX_START_RANK:
        raise InvalidOptionError(f"TRF holds at most {MAX_START_RANK} players")
    points = bye_points or ByePoints()
    results, byes = list(results), list(byes)
    if through_round is not None:
        results = [r for r in results if r.round <= through_round]
        byes = [b for b in byes if b.round <= through_round]
    start_rank = {e: i + 1 for i, e in enumerate(players)}
    recorded = max([r.round for r in results] + [b.round for b in byes], default=0)
    if total_rounds is not None and total_rounds < recorded:
        raise InvalidOptionError(f"{recorded} rounds are recorded, but total_rounds={total_rounds}")
    # Checkers need the planned length to pair or check the last rounds, so it is always there.
    lines = [f"012 {_one_line(tournament_name)}", f"062 {len(players)}"]
    lines.append(f"XXR {total_rounds if total_rounds is not None else max(recorded, 1)}")
    if points.pairing != WIN:
        lines.append(f"BBU {points.pairing:>4.1f}")  # the value sits in columns 5-8
    lines += _player_lines(players, results, byes, tiebreaks, points)
    for pair in forbidden_pairs:
        for entrant in pair:
            check_known(entrant, frozenset(players), "forbidden pair")
        lines.append(f"XXP {start_rank[pair[0]]} {start_rank[pair[1]]}")
    return "\n".join(lines) + "\n"


def _player_lines(
    players: tuple[str, ...],
    results: list[MatchResult],
    byes: list[Bye],
    tiebreaks: Sequence[Tiebreak],
    points: ByePoints,
) -> list[str]:
    ledger = build_ledger(players, results, byes)
    table = standings(players, results, byes, tiebreaks, points)
    rank = {s.entrant: position for position, s in enumerate(table, 1)}
    total = {s.entrant: s.points for s in table}
    start_rank = {e: i + 1 for i, e in enumerate(players)}
    lines = []
    for entrant in players:
        records = ledger.records[entrant]
        blocks = [
            round_block(records.get(number), start_rank, points)
            for number in range(1, ledger.last_round + 1)
        ]
        lines.append(
            player_line(start_rank[entrant], entrant, total[entrant], rank[entrant], blocks)
        )
    return lines


def player_line(start: int, name: str, points: float, rank: int, blocks: Sequence[str]) -> str:
    """One `001` line; `blocks` are the 8-character round entries ("  12 w 1" style)."""
    if points > MAX_POINTS:
        raise InvalidOptionError(f"TRF cannot show {points} points (at most {MAX_POINTS})")
    name = _one_line(name)[:NAME_WIDTH]
    head = f"001 {start:>4}      {name:<{NAME_WIDTH}}{'':33}{points:>4.1f} {rank:>4}"
    return head + "".join(f"  {block}" for block in blocks)


def round_block(record: RoundRecord | None, start_rank: dict[str, int], points: ByePoints) -> str:
    """The 8 characters for one round: opponent (4), space, seat, space, result."""
    if record is None:
        return "0000 - -"
    if isinstance(record, Bye):
        if record.kind is ByeKind.PAIRING:
            return "0000 - U"
        return f"0000 - {_ABSENCE_CODE[points.points(record.kind)]}"
    seat = "w" if record.seat == 0 else "b"
    forfeit_code = "+" if record.score == WIN else "-"
    code = forfeit_code if record.forfeit else _PLAYED_CODE[record.score]
    return f"{start_rank[record.opponent]:>4} {seat} {code}"


def _one_line(text: str) -> str:
    """`text` with line breaks and other control characters blanked, so columns stay put."""
    return "".join(c if c.isprintable() else " " for c in text)
