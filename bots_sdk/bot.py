"""What a bot author writes: a subclass of `Bot` with one method, `act`.

    class MyBot(Bot):
        name = "my-bot"
        games = ("caper", "caper-europe")  # the games it plays, announced in Hello

        def act(self, observation: Observation, legal: Sequence[GameAction]) -> GameAction:
            return legal[0]

The SDK rebuilds the arena's wire messages into the engine's own typed values (the same
observations and actions the built-in bots use: `CaperObservation` and `Action` for first-edition
Caper, `EuropeObservation` and `EuropeAction` for Caper: Europe), calls the bot, and answers the
arena with the index of the chosen action. `isinstance(observation, EuropeObservation)` tells the
editions apart. Decisions are made one at a time, even when the bot plays several games at once,
so a bot needs no locking.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from arena.games.api import Result
from arena.games.caper import Action, CaperObservation
from arena.games.caper_europe import Action as EuropeAction
from arena.games.caper_europe import EuropeObservation

# Every game's types, as `arena.codec` rebuilds them from the wire.
Observation = CaperObservation | EuropeObservation
GameAction = Action | EuropeAction


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision request, for bots that need more than `act` is given (override `decide`)."""

    request_id: str
    game_id: str
    seat: int
    observation: Observation
    legal: tuple[GameAction, ...]  # the engine's stable order; never empty
    legal_text: tuple[str, ...]  # each legal action's text form, e.g. "thief The Dame at 2"
    deadline_ms: int  # from receipt: this move's time plus the bank left
    bank_ms: int
    strikes: int  # deadlines already missed in this game
    move_number: int
    game: str = "caper"  # the game's id: "caper" or "caper-europe"


@dataclass(frozen=True, slots=True)
class GameStart:
    """A game involving the bot has begun."""

    game_id: str
    game: str  # "caper" or "caper-europe"
    seat: int
    rules_version: int
    config: Mapping[str, str | int]  # e.g. {"city": "paris"}
    opponent: str
    move_ms: int
    bank_ms: int
    max_strikes: int


@dataclass(frozen=True, slots=True)
class GameEnd:
    """A game involving the bot has ended."""

    game_id: str
    seat: int
    result: Result  # scores and winner; for a forfeit, the points on the table when it stopped
    termination: str  # "normal", "resignation", "timeout", "illegal_action", "disconnect", ...
    reason: str  # why it ended early, for humans; empty for a normal end

    @property
    def won(self) -> bool:
        return self.result.winner == self.seat


class Bot(ABC):
    """Subclass and implement `act`. Everything else is optional."""

    name: str = "bot"  # for logs; the arena shows the name the bot was registered with
    version: str = "0"  # sent in Hello, shown in tables and game records
    # The ids of the games the bot can play, sent in Hello: "caper" (first edition) and/or
    # "caper-europe". `act` only ever gets observations and actions of these games.
    games: tuple[str, ...] = ("caper",)
    info: str = ""  # free text for organisers (author, method)
    # True if the same messages from a fresh instance always get the same answers;
    # `bots_sdk.testing` checks the claim.
    deterministic: bool = False

    @abstractmethod
    def act(self, observation: Observation, legal: Sequence[GameAction]) -> GameAction:
        """One of `legal` (compared by value, so a rebuilt equal action is fine)."""

    def decide(self, decision: Decision) -> GameAction:
        """The full request; override instead of `act` to see the game id or the deadline."""
        return self.act(decision.observation, decision.legal)

    def on_game_start(self, game: GameStart) -> None:  # noqa: B027 (optional: no-op default)
        """Called before the first decision of each game."""

    def on_game_over(self, game: GameEnd) -> None:  # noqa: B027 (optional: no-op default)
        """Called once per game, after its last decision."""
