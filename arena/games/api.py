"""What every game offers the referee, bots and tools (ARCHITECTURE.md, "Game engine API").

A game is a stateless object; its states are immutable values. Nothing here assumes Caper's
shape: seats are integers from 0, actions are hashable values with a stable text form, and an
observation is a JSON-ready mapping of what one seat may see.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

JsonValue = Any  # what `json.dumps` accepts; kept loose on purpose at this edge
Config = Mapping[str, str | int]


class GameError(ValueError):
    """Base of every error a rules engine raises for bad input."""


class ConfigError(GameError):
    """The game cannot be set up with this configuration (unknown city, bad seat count...)."""


class InvalidActionError(GameError):
    """The action text or value is malformed: it names no action of this game."""


class IllegalActionError(GameError):
    """The action is well formed but not allowed in this state; the message says why."""


class WrongSeatError(IllegalActionError):
    """The action was sent for a seat that is not the one to act."""


class GameOverError(IllegalActionError):
    """The game has ended; no action can be applied."""


@dataclass(frozen=True, slots=True)
class Result:
    """A finished game: points per seat, the winner, and where each seat's points came from."""

    scores: tuple[int, ...]
    winner: int | None  # None only for games that can be drawn
    breakdown: tuple[Mapping[str, int], ...]
    tiebreak: str = ""  # how the winner was decided when scores were level, e.g. "coins"
    details: Mapping[str, JsonValue] = field(default_factory=dict)

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "scores": list(self.scores),
            "winner": self.winner,
            "breakdown": [dict(b) for b in self.breakdown],
            "tiebreak": self.tiebreak,
            "details": dict(self.details),
        }


@dataclass(frozen=True, slots=True)
class SeatRole:
    """A seat's part in a game. Seats of one team form one side, played by one entrant; a seat
    with no team is a side of its own."""

    role: str  # "mastermind", "snitch", "lookout"; "player" for a game without roles
    team: str = ""  # "cream", "mint"; "" for a seat that plays for itself alone


class Observation(Protocol):
    """One seat's view of a state; each game has its own typed observation."""

    @property
    def seat(self) -> int: ...

    def to_json(self) -> dict[str, JsonValue]: ...


S = TypeVar("S")
A = TypeVar("A")


class Game(Protocol[S, A]):
    """The rules of one game. Every method is pure: the same arguments give the same answer."""

    id: str
    name: str
    rules_version: int
    num_players: int

    def create(self, config: Config, seed: int) -> S:
        """The initial state; all of the game's randomness is drawn from `seed` here."""

    def current_player(self, state: S) -> int | None:
        """The seat to act, or None once the game is over."""

    def legal_actions(self, state: S) -> Sequence[A]:
        """Every legal action in a stable, sorted order; empty only when the game is over."""

    def apply(self, state: S, action: A, seat: int | None = None) -> S:
        """The next state. `state` is unchanged. Raises a `GameError` naming what was wrong."""

    def is_terminal(self, state: S) -> bool: ...

    def result(self, state: S) -> Result:
        """Scores, winner and breakdown of a finished game; `GameError` before the end."""

    def observation(self, state: S, seat: int) -> Observation:
        """Exactly what `seat` may know with perfect memory, and nothing more."""

    def action_text(self, action: A) -> str: ...

    def parse_action(self, text: str) -> A:
        """The action written as `text`; `InvalidActionError` if malformed."""

    def render(self, state: S, seat: int | None = None) -> str:
        """A human-readable picture of the state, from `seat`'s view if given (else omniscient)."""

    def conserved(self, state: S) -> Mapping[str, int]:
        """Quantities that must never change during a game (for the conformance checker)."""
