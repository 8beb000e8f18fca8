"""Bots with known behaviour, good and broken, for the SDK's tests.

The SDK plays each (game, seat) with its own deep copy of the bot it is given: what these bots
record goes to a `Journal` that the copies share, so a test can read it from the prototype.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from arena.games.caper import Action, ActionKind
from bots_sdk import Bot, GameAction, GameEnd, GameStart, Observation


class Journal:
    """What every instance made from one prototype did; shared by its copies, never copied."""

    def __init__(self) -> None:
        self.calls = 0
        self.started: list[GameStart] = []
        self.ended: list[GameEnd] = []
        self.instances: list[Bot] = []  # the instances that got a GameStart, in order

    def __deepcopy__(self, memo: dict[int, Any]) -> Journal:
        return self


class FirstBot(Bot):
    """Always the first legal action; records what it was told in its journal."""

    name = "first"
    version = "1.2.3"
    deterministic = True

    def __init__(self) -> None:
        self.journal = Journal()

    @property
    def calls(self) -> int:
        return self.journal.calls

    @calls.setter
    def calls(self, value: int) -> None:
        self.journal.calls = value

    @property
    def started(self) -> list[GameStart]:
        return self.journal.started

    @property
    def ended(self) -> list[GameEnd]:
        return self.journal.ended

    def act(self, observation: Observation, legal: Sequence[GameAction]) -> GameAction:
        self.calls += 1
        return legal[0]

    def on_game_start(self, game: GameStart) -> None:
        self.started.append(game)

    def on_game_over(self, game: GameEnd) -> None:
        self.ended.append(game)


class BothEditionsFirstBot(FirstBot):
    """FirstBot that also plays Caper: Europe."""

    games = ("caper", "caper-europe")


class LastBot(FirstBot):
    def act(self, observation: Observation, legal: Sequence[GameAction]) -> GameAction:
        self.calls += 1
        return legal[-1]


class IllegalBot(FirstBot):
    """From its third decision on, plays a well-formed action that is never legal."""

    deterministic = False

    def act(self, observation: Observation, legal: Sequence[GameAction]) -> GameAction:
        self.calls += 1
        return legal[0] if self.calls < 3 else Action(ActionKind.DISCARD, "The Dame")


class RaisingBot(FirstBot):
    def act(self, observation: Observation, legal: Sequence[GameAction]) -> GameAction:
        raise RuntimeError("bug in act")


class WrongTypeBot(FirstBot):
    def act(self, observation: Observation, legal: Sequence[GameAction]) -> GameAction:
        return 0  # type: ignore[return-value]  # the mistake under test


class HookRaisingBot(FirstBot):
    def on_game_over(self, game: GameEnd) -> None:
        raise KeyError("no such game")


class NoisyBot(FirstBot):
    """Claims to be deterministic but draws from an unseeded generator."""

    def __init__(self) -> None:
        super().__init__()
        self.rng = random.Random()

    def act(self, observation: Observation, legal: Sequence[GameAction]) -> GameAction:
        return self.rng.choice(legal)


class FakeClock:
    """A clock that moves only when told: speed checks without real waiting."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def __deepcopy__(self, memo: dict[int, Any]) -> FakeClock:
        return self  # the bot's copies move the clock the test reads


class SlowBot(FirstBot):
    """Takes `think_s` of fake time on every decision from the fifth on."""

    def __init__(self, clock: FakeClock, think_s: float) -> None:
        super().__init__()
        self.clock, self.think_s = clock, think_s

    def act(self, observation: Observation, legal: Sequence[GameAction]) -> GameAction:
        self.calls += 1
        if self.calls >= 5:
            self.clock.now += self.think_s
        return legal[0]
