"""What every `arena` subcommand shares: the console, the Redis option, and turning the
library's typed errors into one line on stderr instead of a traceback."""

from __future__ import annotations

import functools
from collections.abc import Callable
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


REDIS_OPTION = click.option(
    "--redis-url",
    envvar="REDIS_URL",
    help="Redis server, e.g. redis://host:6379/0 [env: REDIS_URL].",
)
