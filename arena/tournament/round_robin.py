"""Round robin schedules from the FIDE Berger tables (FIDE Handbook C.05, Annex 1).

Entrants are numbered 1..n in the order given. With n even (a dummy n+1 is added to an odd field,
and whoever meets the dummy has a bye), let m = n - 1. In round r:

* board 1 is entrant n against the entrant a with 2a = r + 1 (mod m); n sits in seat 1 in odd
  rounds and seat 0 in even rounds;
* board k + 1 (k = 1 .. n/2 - 1) is a + k (seat 0) against a - k (seat 1), numbers taken mod m in
  1..m.

This closed form is the circle method written out, and reproduces the published tables board by
board (see tests/tournament/test_round_robin.py), so no table needs to be stored.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.tournament.errors import InvalidOptionError, check_entrants
from arena.tournament.model import Bye, ByeKind, Pairing, Round


def berger_rounds(entrants: Sequence[str], *, double: bool = False) -> list[Round]:
    """All rounds of a round robin between `entrants` (in Berger number order).

    `double=True` plays every pairing twice: the first cycle with its last two rounds swapped, as
    FIDE recommends so that nobody gets the same seat three times in a row across the cycle
    boundary, then the published table again with the seats swapped.
    """
    players = check_entrants(entrants)
    table = _berger_table(len(players) + len(players) % 2)
    single = [_to_round(number, boards, players) for number, boards in enumerate(table, 1)]
    if not double:
        return single
    first = list(table)
    if len(first) >= 2:
        first[-2], first[-1] = first[-1], first[-2]
    second = [[(black, white) for white, black in boards] for boards in table]
    cycle = first + second
    return [_to_round(number, boards, players) for number, boards in enumerate(cycle, 1)]


def berger_table(size: int) -> list[list[tuple[int, int]]]:
    """The published Berger table for `size` players (even, >= 2) as 1-based number pairs.

    Each round is a list of boards `(seat0 number, seat1 number)` in board order.
    """
    if size < 2 or size % 2:
        raise InvalidOptionError(
            f"Berger tables exist for an even number of players >= 2, got {size}"
        )
    return _berger_table(size)


def _berger_table(size: int) -> list[list[tuple[int, int]]]:
    m = size - 1
    half_inverse = (m + 1) // 2  # 2 * half_inverse = 1 (mod m), since m is odd
    rounds = []
    for r in range(1, m + 1):
        a = _wrap((r + 1) * half_inverse, m)
        first = (a, size) if r % 2 else (size, a)
        rest = [(_wrap(a + k, m), _wrap(a - k, m)) for k in range(1, size // 2)]
        rounds.append([first, *rest])
    return rounds


def _wrap(number: int, m: int) -> int:
    """`number` reduced mod m into 1..m (the Berger numbers other than the last)."""
    return (number - 1) % m + 1


def _to_round(number: int, boards: list[tuple[int, int]], players: tuple[str, ...]) -> Round:
    pairings: list[Pairing] = []
    byes: list[Bye] = []
    dummy = len(players) + 1  # only reachable when the field is odd
    for seat0, seat1 in boards:
        if dummy in (seat0, seat1):
            resting = seat1 if seat0 == dummy else seat0
            byes.append(Bye(number, players[resting - 1], ByeKind.PAIRING))
        else:
            pairings.append(Pairing(players[seat0 - 1], players[seat1 - 1]))
    return Round(number, tuple(pairings), tuple(byes))
