"""What an organiser sets up: format, game, entrants, rounds, match length and time control."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

from arena.tournament.errors import (
    DuplicateEntrantError,
    InvalidOptionError,
    TooFewEntrantsError,
    TooManyRoundsError,
)
from arena.tournament.model import ByePoints
from arena.tournament.round_robin import berger_rounds
from arena.tournament.standings import ROUND_ROBIN_TIEBREAKS, SWISS_TIEBREAKS, Tiebreak
from arena.tournament.swiss import SwissSystem, max_swiss_rounds
from arena.tournament.tables import table_round_robin

# RQ job ids allow only these characters, and a tournament's name is part of its jobs' ids.
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")


class Format(StrEnum):
    SWISS = "swiss"
    ROUND_ROBIN = "round-robin"
    DOUBLE_ROUND_ROBIN = "double-round-robin"


@dataclass(frozen=True, slots=True)
class TimeControl:
    move_ms: int = 1000
    bank_ms: int = 10_000
    max_strikes: int = 3
    grace_ms: int = 10_000


@dataclass(frozen=True, slots=True)
class TournamentDefinition:
    name: str
    format: Format
    entrants: tuple[str, ...]  # in seed order
    game: str = "caper"
    config: dict[str, str | int] = field(default_factory=dict)
    rounds: int | None = None  # Swiss only; round robins have as many as the table needs
    games_per_match: int = 2
    duplicate: bool = True  # games come in pairs: one deal, seats swapped
    time_control: TimeControl = field(default_factory=TimeControl)
    rated: bool = False  # its results are rated: in `rating_ladder`'s pool when one is named
    seed: int = 1
    tiebreaks: tuple[Tiebreak, ...] = ()
    absent_bye_points: float = 0.0  # what a late entrant scores for each round it missed
    swiss_system: SwissSystem = SwissSystem.ARENA  # who pairs a Swiss: ours, or strict FIDE Dutch
    # Entrants at a table, for games of three or more sides (the Snitch game): the Swiss is then
    # played in pods and the round robin is one of tables. 0: two-sided matches.
    table_size: int = 0
    # The slug of the ladder whose rating pool each finished match or table is rated in; ""
    # (and in definitions stored before it existed): none.
    rating_ladder: str = ""

    @property
    def bye_points(self) -> ByePoints:
        return ByePoints(absent=self.absent_bye_points)

    def __post_init__(self) -> None:
        object.__setattr__(self, "format", Format(self.format))
        object.__setattr__(self, "entrants", tuple(self.entrants))
        if not self.tiebreaks:
            chosen = SWISS_TIEBREAKS if self.format is Format.SWISS else ROUND_ROBIN_TIEBREAKS
            object.__setattr__(self, "tiebreaks", tuple(chosen))
        object.__setattr__(self, "tiebreaks", tuple(Tiebreak(t) for t in self.tiebreaks))
        if self.rating_ladder:
            object.__setattr__(self, "rated", True)
        try:
            object.__setattr__(self, "swiss_system", SwissSystem(self.swiss_system))
        except ValueError:
            known = ", ".join(s.value for s in SwissSystem)
            raise InvalidOptionError(
                f"unknown Swiss system {self.swiss_system!r}: choose from {known}"
            ) from None
        self._validate()

    def _validate(self) -> None:
        self._validate_common()
        if self.table_size:
            self._validate_tables()
            return
        if self.duplicate and self.games_per_match % 2:
            raise InvalidOptionError(
                f"duplicate matches play deals in pairs: games per match must be even, "
                f"got {self.games_per_match} (or use --no-duplicate)"
            )
        if self.format is Format.SWISS:
            limit = max_swiss_rounds(len(self.entrants))
            if self.rounds is None or not 1 <= self.rounds <= limit:
                raise TooManyRoundsError(
                    f"a Swiss of {len(self.entrants)} entrants can have 1 to {limit} rounds "
                    f"without rematches, got {self.rounds}"
                )
        elif self.rounds is not None and self.rounds != self.planned_rounds:
            raise InvalidOptionError(
                f"a {self.format.value} of {len(self.entrants)} entrants has "
                f"{self.planned_rounds} rounds; leave --rounds out"
            )

    def _validate_common(self) -> None:
        if not NAME_PATTERN.match(self.name):
            raise InvalidOptionError(
                f"bad tournament name {self.name!r}: use up to 64 letters, digits, '_' or '-'"
            )
        if len(self.entrants) < 2:
            raise TooFewEntrantsError(
                f"a tournament needs at least 2 entrants, got {len(self.entrants)}"
            )
        # Counted once: every read of a stored definition validates it, whatever its size.
        twice = sorted(e for e, n in Counter(self.entrants).items() if n > 1)
        if twice:
            raise DuplicateEntrantError(f"entrant(s) listed twice: {', '.join(twice)}")
        self.bye_points  # noqa: B018 - refuses points other than 0, 0.5 or 1
        if self.games_per_match < 1:
            raise InvalidOptionError("games per match must be at least 1")

    def _validate_tables(self) -> None:
        """A tournament of tables: Swiss pods or a round robin of tables (`arena.tournament`)."""
        size, count = self.table_size, len(self.entrants)
        if count < size:
            raise TooFewEntrantsError(
                f"a table of this game seats {size} entrants: the field has only {count}"
            )
        if self.format is Format.DOUBLE_ROUND_ROBIN:
            raise InvalidOptionError(
                f"games of {size} sides are played at tables: use --format swiss (pods) or "
                "round-robin (of tables)"
            )
        if self.duplicate and self.games_per_match % size:
            raise InvalidOptionError(
                f"a duplicate table plays each deal once per rotation of its {size} seats (V12): "
                f"games per table must be a multiple of {size}, got {self.games_per_match} "
                "(or use --no-duplicate)"
            )
        if self.format is Format.SWISS:
            limit = max_pod_rounds(count, size)
            if self.rounds is None or not 1 <= self.rounds <= limit:
                raise TooManyRoundsError(
                    f"a Swiss of {count} entrants in tables of {size} can have 1 to {limit} "
                    f"rounds before two entrants must meet again, got {self.rounds}"
                )
        elif self.rounds is not None and self.rounds != self.planned_rounds:
            raise InvalidOptionError(
                f"a round robin of tables of {size} for {count} entrants has "
                f"{self.planned_rounds} rounds; leave --rounds out"
            )

    @property
    def planned_rounds(self) -> int:
        if self.format is Format.SWISS:
            return self.rounds or 0
        if self.table_size:  # deterministic from the seed: what `start` schedules
            return len(table_round_robin(self.entrants, self.table_size, seed=self.seed))
        return len(berger_rounds(self.entrants, double=self.format is Format.DOUBLE_ROUND_ROBIN))

    def to_json(self) -> str:
        data = asdict(self)
        data["format"] = self.format.value
        data["tiebreaks"] = [t.value for t in self.tiebreaks]
        data["swiss_system"] = self.swiss_system.value
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> TournamentDefinition:
        data: dict[str, Any] = json.loads(text)
        data["entrants"] = tuple(data["entrants"])
        data["time_control"] = TimeControl(**data["time_control"])
        data["tiebreaks"] = tuple(data["tiebreaks"])
        return cls(**data)


def max_pod_rounds(entrants: int, size: int) -> int:
    """Rounds of tables of `size` before two entrants must share a table again, at best: each
    round an entrant meets `size - 1` of the other `entrants - 1`."""
    return max(1, math.ceil((entrants - 1) / (size - 1)))
