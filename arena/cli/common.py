"""What every `arena` subcommand shares: the console, the Redis option, and turning the
library's typed errors into one line on stderr instead of a traceback."""

from __future__ import annotations

import contextlib
import functools
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import ParamSpec, TypeVar

import click
import redis
from rich.console import Console

from arena.games.api import GameError

P = ParamSpec("P")
R = TypeVar("R")
console = Console(highlight=False)


def friendly_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Turn the library's typed errors into a one-line CLI error (exit status 1)."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except (GameError, ValueError, OSError) as error:
            raise click.ClickException(str(error)) from None
        except redis.RedisError as error:
            raise click.ClickException(f"Redis: {error}") from None

    return wrapper


@contextlib.contextmanager
def sigterm_interrupts() -> Iterator[None]:
    """SIGTERM stops the command the way Ctrl-C does, for the block's duration.

    Its default action kills this process on the spot, leaving behind the worker processes, the
    embedded redis-server and the temporary folders it started; as a KeyboardInterrupt it unwinds
    every `finally` and context manager instead, and they stop what they started."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers belong to the main thread (a test may invoke a command elsewhere)
        return
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    # One is enough: a supervisor that repeats SIGTERM must not cut the clean-up short.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise KeyboardInterrupt


CITY_OPTION = click.option(
    "--city",
    help="City: paris (default), rome or london; caper-europe also barcelona. "
    "Refused for age-of-thieves, played on one board.",
)

REDIS_OPTION = click.option(
    "--redis-url",
    envvar="REDIS_URL",
    help="Redis server, e.g. redis://host:6379/0 [env: REDIS_URL].",
)


def _fresh_seed_unless_given(_ctx: click.Context, _param: click.Parameter, seed: int | None) -> int:
    from arena.services.events import event_seed

    try:
        return event_seed(seed)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


def event_seed_option(what: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """`--seed` of an event that publishes its games: a fresh seed unless one is given, so two
    events never share deals by default (a finished event's replays would show the next one's)."""
    return click.option(
        "--seed",
        type=int,
        callback=_fresh_seed_unless_given,
        help=f"Seed of {what} (default: a fresh random seed, printed; give it to repeat deals).",
    )
