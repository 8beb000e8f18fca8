"""Hosted bots in a match: the stored version of each is started in the sandbox the first time
the match seats it, plays every game of the match in that one process, and is stopped when the
match ends, whatever happened. A hosted bot is never waited for: the arena runs it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import redis

from arena.bots import BUILTIN_BOTS, builtin_name
from arena.games.api import Game
from arena.hosted.manifest import missing_runtime, runtime_folders
from arena.hosted.program import MATCH_OVER, Program
from arena.hosted.sandbox import DEFAULT_LIMITS, Limits
from arena.hosted.seat import ProgramSeat, UnplayableSeat
from arena.play.hosted_build import build
from arena.play.hosted_versions import HostedError, find_version, materialise, parse_spec
from arena.referee.referee import Seat
from arena.store.bot_versions import BotVersions, BuildState
from arena.store.bots import BotInfo, BotRegistry


@dataclass(frozen=True, slots=True)
class Playable:
    """A version ready to start: its command, run in `folder` (read-only to the program)."""

    bot: str
    version: str
    command: tuple[str, ...]
    folder: Path
    runtime: str
    runtimes: tuple[Path, ...] = ()  # folders of the arena lent read-only (runtime_folders)


def playable(client: redis.Redis, spec: str, root: Path | None = None) -> Playable:
    """The version `spec` names, unpacked and ready to start; one not built yet is built first.
    A version named whose build failed is refused; for "NAME", a newest version whose build
    fails now gives way to the newest one before it that builds."""
    bot, info = find_version(client, spec)
    while info.build is BuildState.PENDING:
        info = build(client, bot, info)
        if info.build is BuildState.FAILED and parse_spec(spec)[1] is None:
            bot, info = find_version(client, spec)  # the failed one is passed over now
    if info.build is BuildState.FAILED:
        raise HostedError(
            f"version {info.version} of bot {bot.name} failed to build: it is not played"
        )
    manifest = info.manifest
    if (missing := missing_runtime(str(manifest["runtime"]))) is not None:
        raise HostedError(f"bot {bot.name} cannot play here: {missing}")
    command = tuple(str(word) for word in manifest["command"])  # type: ignore[attr-defined]
    folder = materialise(client, bot.bot_id, info, root)
    runtime = str(manifest["runtime"])
    return Playable(bot.name, info.version, command, folder, runtime, runtime_folders(runtime))


class HostedPrograms:
    """The programs of a match's hosted bots, one per bot, started on first use; a context
    manager that stops them all on leaving."""

    def __init__(self, client: redis.Redis, limits: Limits = DEFAULT_LIMITS) -> None:
        self._client, self._limits = client, limits
        self._programs: dict[str, Program | str] = {}  # str: why the bot cannot play
        self._versions: dict[str, tuple[str, str]] = {}  # name -> its bot id and version

    def is_hosted(self, bot: BotInfo) -> bool:
        return BotVersions(self._client).is_hosted(bot.bot_id)

    def start(self, names: Sequence[str]) -> None:
        """Start the programs of the hosted bots among `names` side by side: every one spawned,
        then each one's hello awaited, so that a match waits for the slowest start, not the
        sum of them. A program that does not say hello is `gone`: its seats forfeit. What a
        program's Hello says is recorded as a remote bot's is: the games it plays."""
        registry = BotRegistry(self._client)
        spawned = []
        for name in dict.fromkeys(names):
            if name in self._programs or builtin_name(name) in BUILTIN_BOTS:
                continue
            bot = registry.by_name(name)
            if bot is not None and self.is_hosted(bot):
                program = self._programs[name] = self._spawn(bot)
                spawned.append((bot.bot_id, program))
        for bot_id, program in spawned:
            if isinstance(program, Program):
                program.greet()
                if program.hello is not None:
                    hello = program.hello
                    registry.record_hello(bot_id, list(hello.games), hello.bot_version)

    def seat(self, bot: BotInfo, game: Game[Any, Any]) -> Seat:
        """A seat played by the bot's program, started now if `start` did not."""
        if bot.name not in self._programs:
            self.start([bot.name])
        program = self._programs[bot.name]
        if isinstance(program, str):
            return UnplayableSeat(bot.name, program)
        return ProgramSeat(program, bot.name, game)

    def _spawn(self, bot: BotInfo) -> Program | str:
        try:
            version = playable(self._client, bot.name)
        except HostedError as error:
            return str(error)
        program = Program(
            version.command,
            version.folder,
            self._limits,
            runtimes=version.runtimes,
            runtime=version.runtime,
        )
        program.spawn()
        self._versions[bot.name] = (bot.bot_id, version.version)
        return program

    def stop(self) -> None:
        """Stop every program; keep the end of each one's stderr for its owner."""
        store = BotVersions(self._client)
        for program in self._programs.values():
            if isinstance(program, Program):
                program.close_input()
        for name, program in self._programs.items():
            if isinstance(program, Program):
                program.stop()
                bot_id, version = self._versions[name]
                why = "" if program.gone == MATCH_OVER else program.gone or ""
                store.record_log(bot_id, version, program.stderr, why)

    def __enter__(self) -> HostedPrograms:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()
