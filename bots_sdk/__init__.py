"""The Python SDK for bot authors: subclass `Bot`, implement `act`, call `run`.

    from bots_sdk import Bot, run

    class FirstBot(Bot):
        games = ("caper", "caper-europe")  # announced in Hello; first edition only by default

        def act(self, observation, legal):
            return legal[0]

    run(FirstBot, "localhost:50051", token)  # the class: a fresh instance per (game, seat)

First-edition Caper games bring a `CaperObservation` and `Action`s (`ActionKind`); Caper: Europe
games a `EuropeObservation` and `EuropeAction`s (`EuropeActionKind`, `EuropeGood`); Age of
Thieves games an `AgeOfThievesObservation` (`to_json()`: the seat's view) and
`AgeOfThievesAction`s (a verb and an argument, e.g. `AgeOfThievesAction("step", "N34")`).
`Observation` and `GameAction` are the unions of all of them, for annotating `act`.

Each (game, seat) gets its own instance, made from the class (or a deep copy of an instance)
passed to `run`; see `bots_sdk.bot`. `python -m bots_sdk.testing module:BotClass` checks a bot
without a server, in 2-, 3- and 4-player games.
"""

from arena.games.age_of_thieves.observation import AgeOfThievesObservation
from arena.games.age_of_thieves.state import Action as AgeOfThievesAction
from arena.games.caper import Action, ActionKind, CaperObservation
from arena.games.caper_europe import Action as EuropeAction
from arena.games.caper_europe import ActionKind as EuropeActionKind
from arena.games.caper_europe import EuropeObservation
from arena.games.caper_europe import Good as EuropeGood
from bots_sdk.backoff import Backoff
from bots_sdk.bot import (
    Bot,
    BotSource,
    Decision,
    GameAction,
    GameEnd,
    GameSeat,
    GameStart,
    Observation,
)
from bots_sdk.client import run
from bots_sdk.errors import ArenaError, AuthenticationError, ProtocolError

__all__ = [
    "Action",
    "ActionKind",
    "AgeOfThievesAction",
    "AgeOfThievesObservation",
    "ArenaError",
    "AuthenticationError",
    "Backoff",
    "Bot",
    "BotSource",
    "CaperObservation",
    "Decision",
    "EuropeAction",
    "EuropeActionKind",
    "EuropeGood",
    "EuropeObservation",
    "GameAction",
    "GameEnd",
    "GameSeat",
    "GameStart",
    "Observation",
    "ProtocolError",
    "run",
]
