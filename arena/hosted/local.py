"""Programs named on the command line ("cmd:python3 mybot.py", or a stored version of a hosted
bot), each started once for a whole series of local games and stopped at its end."""

from __future__ import annotations

import shlex
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from arena.games.api import ConfigError
from arena.hosted.program import Program
from arena.hosted.sandbox import DEFAULT_LIMITS, Limits

PREFIX = "cmd:"


def is_program(name: str) -> bool:
    return name.startswith(PREFIX)


def command_of(name: str) -> list[str]:
    """The argument vector of a "cmd:..." bot name, split as a shell would."""
    try:
        command = shlex.split(name.removeprefix(PREFIX))
    except ValueError as error:
        raise ConfigError(f"cannot read the command of {name!r}: {error}") from None
    if not command:
        raise ConfigError(f"{name!r} names no command: write cmd:COMMAND, e.g. cmd:python3 bot.py")
    return command


@contextmanager
def started_programs(
    names: Sequence[str],
    folder: Path,
    sandboxed: bool = True,
    runtimes: Sequence[Path] = (),
    limits: Limits = DEFAULT_LIMITS,
    given: Mapping[str, tuple[Sequence[str], Path, Sequence[Path], str]] | None = None,
) -> Iterator[dict[str, Program]]:
    """The running program of each "cmd:" name in `names`, run in `folder`, and of each name
    `given` a command, its own folder, its own runtime folders and system runtime (a hosted
    bot's version); every one is stopped on leaving, whatever happened."""
    programs: dict[str, Program] = {}
    given = given or {}
    try:
        for name in dict.fromkeys(names):
            if name in given:
                command, own, lent, runtime = given[name]
                programs[name] = Program(command, own, limits, sandboxed, lent, runtime=runtime)
            elif is_program(name):
                programs[name] = Program(command_of(name), folder, limits, sandboxed, runtimes)
            else:
                continue
            programs[name].spawn()
        for program in programs.values():  # spawned side by side, greeted in turn
            program.greet()
        yield programs
    finally:
        for program in programs.values():
            program.close_input()
        for program in programs.values():
            program.stop()
