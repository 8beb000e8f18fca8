"""Hosted bots in a match: the stored version of each is started in the sandbox the first time
the match seats it, plays every game of the match in that one process, and is stopped when the
match ends, whatever happened. A hosted bot is never waited for: the arena runs it."""

from __future__ import annotations

from types import TracebackType
from typing import Any

import redis

from arena.games.api import Game
from arena.hosted.program import Program
from arena.hosted.sandbox import DEFAULT_LIMITS, Limits
from arena.hosted.seat import ProgramSeat, UnplayableSeat
from arena.referee.referee import Seat
from arena.services.hosted import HostedError, playable
from arena.store.bot_versions import BotVersions
from arena.store.bots import BotInfo


class HostedPrograms:
    """The programs of a match's hosted bots, one per bot, started on first use; a context
    manager that stops them all on leaving."""

    def __init__(self, client: redis.Redis, limits: Limits = DEFAULT_LIMITS) -> None:
        self._client, self._limits = client, limits
        self._programs: dict[str, Program | str] = {}  # str: why the bot cannot play

    def is_hosted(self, bot: BotInfo) -> bool:
        return BotVersions(self._client).is_hosted(bot.bot_id)

    def seat(self, bot: BotInfo, game: Game[Any, Any]) -> Seat:
        """A seat played by the bot's program, started now if this is its first seat."""
        program = self._programs.get(bot.name)
        if program is None:
            program = self._programs[bot.name] = self._start(bot)
        if isinstance(program, str):
            return UnplayableSeat(bot.name, program)
        return ProgramSeat(program, bot.name, game)

    def _start(self, bot: BotInfo) -> Program | str:
        try:
            version = playable(self._client, bot.name)
        except HostedError as error:
            return str(error)
        program = Program(version.command, version.folder, self._limits, runtimes=version.runtimes)
        program.start()  # a program that does not say hello is `gone`: its seats forfeit
        return program

    def stop(self) -> None:
        for program in self._programs.values():
            if isinstance(program, Program):
                program.stop()

    def __enter__(self) -> HostedPrograms:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()
