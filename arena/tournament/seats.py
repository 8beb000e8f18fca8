"""Seat preferences and seat allocation for Swiss pairings (chess colours, renamed).

Only played matches count: a forfeit or a bye leaves no seat in the history, as FIDE skips
unplayed games when it looks at colour history. The two hard limits (FIDE C.04.1 f/g) are that
an entrant's seat-0 count minus seat-1 count stays within [-2, 2] and that nobody sits in the same
seat three times in a row. Everything else is a preference, graded like the Dutch rules do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

SEAT0 = 0
SEAT1 = 1

NONE = 0  # no match played yet
MILD = 1  # balanced: would like to alternate
STRONG = 2  # one seat ahead: would like to even out
ABSOLUTE = 3  # at a hard limit: must get this seat

MAX_DIFFERENCE = 2


@dataclass(frozen=True, slots=True)
class SeatPreference:
    """The seat an entrant wants next (`None` if indifferent) and how much."""

    seat: int | None
    strength: int


def seat_preference(seats: Sequence[int]) -> SeatPreference:
    """Preference of an entrant whose played matches were in `seats` (oldest first)."""
    if not seats:
        return SeatPreference(None, NONE)
    difference = seats.count(SEAT0) - seats.count(SEAT1)
    last = seats[-1]
    other = SEAT1 - last
    if difference >= MAX_DIFFERENCE:
        return SeatPreference(SEAT1, ABSOLUTE)
    if difference <= -MAX_DIFFERENCE:
        return SeatPreference(SEAT0, ABSOLUTE)
    if len(seats) >= 2 and seats[-2] == last:
        return SeatPreference(other, ABSOLUTE)
    if difference:
        return SeatPreference(SEAT1 if difference > 0 else SEAT0, STRONG)
    return SeatPreference(other, MILD)


def clash(a: SeatPreference, b: SeatPreference) -> bool:
    """True if `a` and `b` want the same seat, so one of them cannot have it."""
    return a.seat is not None and a.seat == b.seat


def may_meet(a: SeatPreference, b: SeatPreference) -> bool:
    """False if the pair would break a hard seat limit whatever the allocation."""
    return not (clash(a, b) and a.strength == ABSOLUTE and b.strength == ABSOLUTE)


def seat_quality(a: SeatPreference, b: SeatPreference) -> int:
    """2 if both preferences can be granted, 1 if a mild one must yield, 0 if a strong one must."""
    if not clash(a, b):
        return 2
    return 1 if min(a.strength, b.strength) == MILD else 0


def higher_takes_seat0(higher: Sequence[int], lower: Sequence[int], higher_rank: int) -> bool:
    """Whether the higher-ranked of two entrants (seat histories `higher`, `lower`) gets seat 0.

    Follows the order of FIDE Dutch rule E: grant both preferences; else the stronger one (two
    absolute ones, which only last-round topscorers may have: the wider seat difference); else
    alternate from the most recent match where their seats differed; else the higher-ranked
    entrant's preference. With no history at all, seat 0 alternates down the ranking (0-based
    `higher_rank` even takes seat 0), as Dutch round 1 alternates colours board by board.
    """
    pref_h, pref_l = seat_preference(higher), seat_preference(lower)
    if not clash(pref_h, pref_l):
        if pref_h.seat is not None:
            return pref_h.seat == SEAT0
        if pref_l.seat is not None:
            return pref_l.seat == SEAT1
        return higher_rank % 2 == 0
    if pref_h.strength > pref_l.strength:
        return pref_h.seat == SEAT0
    if pref_l.strength > pref_h.strength:
        return pref_l.seat == SEAT1
    if pref_h.strength == ABSOLUTE:
        higher_is_behind = _further_behind(higher, lower, pref_h.seat)
        if higher_is_behind is not None:
            return higher_is_behind is (pref_h.seat == SEAT0)
    for seat_h, seat_l in zip(reversed(higher), reversed(lower), strict=False):
        if seat_h != seat_l:
            return seat_h == SEAT1  # each now takes the seat the other had then
    return pref_h.seat == SEAT0


def _further_behind(higher: Sequence[int], lower: Sequence[int], wanted: int | None) -> bool | None:
    """Whether `higher` has had seat `wanted` less often than `lower`, relative to the other
    seat (None if level)."""
    if wanted is None:
        return None
    behind_h, behind_l = (
        seats.count(1 - wanted) - seats.count(wanted) for seats in (higher, lower)
    )
    return None if behind_h == behind_l else behind_h > behind_l
