"""What a bot author writes: a subclass of `Bot` with one method, `act`.

    class MyBot(Bot):
        name = "my-bot"
        games = ("caper", "caper-europe")  # the games it plays, announced in Hello

        def act(self, observation: Observation, legal: Sequence[GameAction]) -> GameAction:
            return legal[0]

The SDK rebuilds the arena's wire messages into the engine's own typed values (the same
observations and actions the built-in bots use: `CaperObservation` and `Action` for first-edition
Caper, `EuropeObservation` and `EuropeAction` for Caper: Europe, `AgeOfThievesObservation` (its
`to_json()` is the seat's view) and `AgeOfThievesAction` (a verb and an argument) for Age of
Thieves), calls the bot, and answers the arena with the index of the chosen action.
`isinstance(observation, EuropeObservation)` tells the games apart. Decisions are made one at a
time, even when the bot plays several games at once, so a bot needs no locking.

One instance per seat: the bot given to `run` is a prototype. At each game's `GameStarted` the
SDK makes a fresh instance for that (game, seat), a `copy.deepcopy` of the prototype (or a call,
if `run` was given the class or a zero-argument factory), sends it every hook and request of
that seat only, and drops it after the seat's `GameOver`. So `self` may hold one game's memory,
and a bot holding both seats of a team (the 4-player game, V11) gets two instances that share
nothing: each sees only its own seat's hand (V9). A deep copy copies a random generator's state
too: pass the class (`run(MyBot, ...)`) for independently seeded instances. A bot that wants one
shared instance for every game and seat sets `one_instance_per_seat = False`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from arena.games.age_of_thieves.observation import AgeOfThievesObservation
from arena.games.age_of_thieves.state import Action as AgeOfThievesAction
from arena.games.api import Result
from arena.games.caper import Action, CaperObservation
from arena.games.caper_europe import Action as EuropeAction
from arena.games.caper_europe import EuropeObservation

# Every game's types, as `arena.codec` rebuilds them from the wire.
Observation = CaperObservation | EuropeObservation | AgeOfThievesObservation
GameAction = Action | EuropeAction | AgeOfThievesAction


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
    game: str = "caper"  # the game's id: "caper", "caper-europe" or "age-of-thieves"


@dataclass(frozen=True, slots=True)
class GameSeat:
    """One seat of a game, as every player of it is told (`GameStart.seats`, indexed by seat)."""

    player: str  # the registered name of the player in the seat
    role: str  # "mastermind", "snitch" or "lookout" in Caper
    team: str  # "cream" or "mint" in Caper; "" for a seat that plays alone (the Snitch)


@dataclass(frozen=True, slots=True)
class GameStart:
    """A game involving the bot has begun (one per seat the bot holds in it)."""

    game_id: str
    game: str  # "caper", "caper-europe" or "age-of-thieves"
    seat: int
    rules_version: int
    config: Mapping[str, str | int]  # e.g. {"city": "paris"}
    opponent: str
    move_ms: int
    bank_ms: int
    max_strikes: int
    # Every seat, indexed by seat (this one included); empty from an arena that predates them.
    seats: tuple[GameSeat, ...] = ()
    role: str = ""  # this seat's role and team, from `seats`; "" if the arena did not say
    team: str = ""


@dataclass(frozen=True, slots=True)
class GameEnd:
    """A game involving the bot has ended."""

    game_id: str
    seat: int
    result: Result  # scores and winner; for a forfeit, the points on the table when it stopped
    termination: str  # "normal", "resignation", "timeout", "illegal_action", "disconnect", ...
    reason: str  # why it ended early, for humans; empty for a normal end

    @property
    def winners(self) -> frozenset[int]:
        """Every winning seat: both seats of a winning team (V10), the Snitch or the winning
        Mastermind (V5), the sides not at fault after a forfeit at a table; in a 2-player game
        the winner alone (none for a draw)."""
        listed = self.result.details.get("winners")
        if isinstance(listed, list):
            return frozenset(seat for seat in listed if isinstance(seat, int))
        return frozenset() if self.result.winner is None else frozenset({self.result.winner})

    @property
    def won(self) -> bool:
        """Whether this seat won: a Lookout wins when its team does."""
        return self.seat in self.winners

    @property
    def outcome(self) -> str:
        """This seat's end in words: "won", "lost", "drawn" (nobody won), or "everyone lost"
        (Age of Thieves: no thief escaped, so nobody wins; section 19: not a draw)."""
        if self.won:
            return "won"
        if self.result.details.get("everyone_loses"):
            return "everyone lost"
        return "lost" if self.winners else "drawn"


class Bot(ABC):
    """Subclass and implement `act`. Everything else is optional."""

    name: str = "bot"  # for logs; the arena shows the name the bot was registered with
    version: str = "0"  # sent in Hello, shown in tables and game records
    # The ids of the games the bot can play, sent in Hello: "caper" (first edition),
    # "caper-europe" and/or "age-of-thieves". `act` only ever gets observations and actions of
    # these games.
    games: tuple[str, ...] = ("caper",)
    info: str = ""  # free text for organisers (author, method)
    # True if the same messages from a fresh instance always get the same answers;
    # `bots_sdk.testing` checks the claim.
    deterministic: bool = False
    # True: a fresh instance per (game, seat), see the module's docstring. False: this very
    # instance gets every game's and seat's calls (it must then tell them apart itself).
    one_instance_per_seat: bool = True

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


# What `run` takes: a prototype instance (deep-copied per seat) or a class / zero-arg factory.
BotSource = Bot | Callable[[], Bot]
