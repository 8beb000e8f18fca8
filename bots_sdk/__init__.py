"""The Python SDK for bot authors: subclass `Bot`, implement `act`, call `run`.

    from bots_sdk import Bot, run

    class FirstBot(Bot):
        def act(self, observation, legal):
            return legal[0]

    run(FirstBot(), "localhost:50051", token)

`python -m bots_sdk.testing module:BotClass` checks a bot without a server.
"""

from arena.games.caper import Action, ActionKind, CaperObservation
from bots_sdk.backoff import Backoff
from bots_sdk.bot import Bot, Decision, GameEnd, GameStart
from bots_sdk.client import run
from bots_sdk.errors import ArenaError, AuthenticationError, ProtocolError

__all__ = [
    "Action",
    "ActionKind",
    "ArenaError",
    "AuthenticationError",
    "Backoff",
    "Bot",
    "CaperObservation",
    "Decision",
    "GameEnd",
    "GameStart",
    "ProtocolError",
    "run",
]
