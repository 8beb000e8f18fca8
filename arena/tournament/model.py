"""Small immutable value types shared by the pairing, standings and TRF modules.

Entrants are plain `str` ids. Seats are called `seat0`/`seat1` (chess would say white/black): in a
card game seat 0 is whoever acts first. A match is between two entrants and may be several games
(a duplicate pair plays the same deal twice with seats swapped); it is recorded once, as the game
points of each side, and ranked by its match score: 1 for more game points, 1/2 for equal, 0 for
fewer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from arena.tournament.errors import InvalidOptionError, InvalidResultError

# Match scores, also the unit of every tournament score and bye.
WIN = 1.0
DRAW = 0.5
LOSS = 0.0

# Bye amounts are restricted to these so that every score is a multiple of 1/2: scores then
# compare exactly as floats and map one-to-one onto the TRF bye codes (Z, H, F).
ALLOWED_BYE_POINTS = (LOSS, DRAW, WIN)


class ByeKind(StrEnum):
    """Why an entrant has no opponent in a round."""

    PAIRING = "pairing"
    """Pairing-allocated bye: odd field in a Swiss, or the round-robin dummy. TRF code `U`."""

    ABSENT = "absent"
    """Known absence: a late entry's missed rounds or a requested rest. TRF `Z`, `H` or `F`."""


@dataclass(frozen=True, slots=True)
class ByePoints:
    """How many points each kind of bye scores (each one of 0, 0.5 or 1)."""

    pairing: float = WIN
    absent: float = LOSS

    def __post_init__(self) -> None:
        for name, value in (("pairing", self.pairing), ("absent", self.absent)):
            if value not in ALLOWED_BYE_POINTS:
                raise InvalidOptionError(f"{name} bye points must be 0, 0.5 or 1, got {value!r}")

    def points(self, kind: ByeKind) -> float:
        """Points scored by a bye of `kind`."""
        return self.pairing if kind is ByeKind.PAIRING else self.absent


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two entrants meeting in one round; `seat0` acts first (in duplicate mode, in game one)."""

    seat0: str
    seat1: str

    def __post_init__(self) -> None:
        if self.seat0 == self.seat1:
            raise InvalidResultError(f"entrant {self.seat0!r} cannot be paired with itself")

    @property
    def entrants(self) -> tuple[str, str]:
        return (self.seat0, self.seat1)


@dataclass(frozen=True, slots=True)
class Bye:
    """An entrant without an opponent in `round`."""

    round: int
    entrant: str
    kind: ByeKind = ByeKind.PAIRING

    def __post_init__(self) -> None:
        _check_round_number(self.round)


@dataclass(frozen=True, slots=True)
class Round:
    """The pairings and byes of one round; every entrant appears at most once."""

    number: int
    pairings: tuple[Pairing, ...]
    byes: tuple[Bye, ...] = ()

    def __post_init__(self) -> None:
        _check_round_number(self.number)
        seen: set[str] = set()
        names = [e for p in self.pairings for e in p.entrants] + [b.entrant for b in self.byes]
        for entrant in names:
            if entrant in seen:
                raise InvalidResultError(
                    f"entrant {entrant!r} appears twice in round {self.number}"
                )
            seen.add(entrant)
        for bye in self.byes:
            if bye.round != self.number:
                raise InvalidResultError(f"bye {bye} does not belong to round {self.number}")

    @property
    def entrants(self) -> frozenset[str]:
        """Everyone with a pairing or a bye in this round."""
        return frozenset(e for p in self.pairings for e in p.entrants) | {
            b.entrant for b in self.byes
        }


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The recorded outcome of one match.

    `game_points0`/`game_points1` are the raw points of each side (e.g. 1.5 : 0.5 for a duplicate
    pair); `score0`/`score1` are the match scores derived from them. A forfeit is a match that was
    not played (no-show, disconnect before the start): it must have a winner, and tie-breaks and
    seat history treat it as unplayed.
    """

    round: int
    seat0: str
    seat1: str
    game_points0: float
    game_points1: float
    forfeit: bool = False

    def __post_init__(self) -> None:
        _check_round_number(self.round)
        if self.seat0 == self.seat1:
            raise InvalidResultError(f"entrant {self.seat0!r} cannot play itself")
        for value in (self.game_points0, self.game_points1):
            if not math.isfinite(value):
                raise InvalidResultError(f"game points must be finite, got {value!r}")
        if self.forfeit and self.game_points0 == self.game_points1:
            # A double forfeit has no winner; record both sides as absent byes instead.
            raise InvalidResultError("a forfeit must have a winner (unequal game points)")

    @property
    def score0(self) -> float:
        """Match score of seat 0: 1, 1/2 or 0."""
        return _match_score(self.game_points0, self.game_points1)

    @property
    def score1(self) -> float:
        """Match score of seat 1: 1, 1/2 or 0."""
        return _match_score(self.game_points1, self.game_points0)

    @property
    def entrants(self) -> tuple[str, str]:
        return (self.seat0, self.seat1)

    def view(self, entrant: str) -> Encounter:
        """This result as seen by `entrant` (one of the two sides)."""
        if entrant not in self.entrants:
            raise InvalidResultError(f"entrant {entrant!r} did not play in {self}")
        side = self.entrants.index(entrant)
        points = (self.game_points0, self.game_points1)
        return Encounter(
            round=self.round,
            opponent=self.entrants[1 - side],
            seat=side,
            score=(self.score0, self.score1)[side],
            game_points=points[side],
            opponent_game_points=points[1 - side],
            forfeit=self.forfeit,
        )


@dataclass(frozen=True, slots=True)
class Encounter:
    """One match seen from one side: against `opponent`, sitting in `seat` (0 or 1)."""

    round: int
    opponent: str
    seat: int
    score: float
    game_points: float
    opponent_game_points: float
    forfeit: bool


def _match_score(own: float, other: float) -> float:
    if own > other:
        return WIN
    return DRAW if own == other else LOSS


def _check_round_number(number: int) -> None:
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise InvalidResultError(f"round numbers start at 1, got {number!r}")
