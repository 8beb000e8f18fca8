"""Typed errors of the tournament maths.

Every error is a `ValueError`: each one means the caller asked for something the maths cannot give
(bad entrant list, inconsistent history, an impossible pairing), so a caller that only cares about
"bad input" can catch `ValueError` or `TournamentError` alike.
"""

from __future__ import annotations

from collections.abc import Iterable


class TournamentError(ValueError):
    """Base of every error raised by `arena.tournament`."""


class DuplicateEntrantError(TournamentError):
    """The same entrant id appears twice in an entrant list."""


class TooFewEntrantsError(TournamentError):
    """A tournament needs at least two entrants."""


class TooManyRoundsError(TournamentError):
    """More Swiss rounds were asked for than the field can play without rematches."""


class UnknownEntrantError(TournamentError):
    """A result, bye or option names an entrant that is not in the entrant list."""


class InvalidResultError(TournamentError):
    """A match result or bye is malformed (entrant against itself, bad round, bad points)."""


class InvalidHistoryError(TournamentError):
    """The recorded history is inconsistent: two records for one entrant in one round, a record
    for a round that has not been paired yet, or a round with no record for an active entrant."""


class InvalidOptionError(TournamentError):
    """A configuration value (bye points, tie-break list, window size...) is out of range."""


class NoValidPairingError(TournamentError):
    """No pairing satisfies the hard rules (no rematch, no forbidden pair, at most one pairing bye
    per entrant, seat limits). Raised instead of ever returning a pairing that breaks them."""


def check_entrants(entrants: Iterable[str]) -> tuple[str, ...]:
    """Return the entrants as a tuple, or raise if one is repeated or there are fewer than two."""
    result = tuple(entrants)
    seen: set[str] = set()
    for entrant in result:
        if entrant in seen:
            raise DuplicateEntrantError(f"entrant {entrant!r} is listed twice")
        seen.add(entrant)
    if len(result) < 2:
        raise TooFewEntrantsError(f"a tournament needs at least 2 entrants, got {len(result)}")
    return result


def check_known(entrant: str, known: frozenset[str] | set[str], where: str) -> None:
    """Raise `UnknownEntrantError` unless `entrant` is one of `known`."""
    if entrant not in known:
        raise UnknownEntrantError(f"{where} names unknown entrant {entrant!r}")
