"""`arena ladder start|stop|resume`: a ladder's state. Created until started (or first run), then
running: the worker pool keeps its bots playing; a stopped ladder's bots are paired no more and
its queued matches are not played (its ratings stay) until it is resumed
(`arena.tournament.lifecycle`)."""

from __future__ import annotations

import click

from arena.cli.common import REDIS_OPTION, console, friendly_errors
from arena.cli.ratings import _client, _ladder, ladder_options
from arena.store.ladder_runs import DEFAULT_CONCURRENCY


@click.command("start")
@click.argument("name")
@REDIS_OPTION
@ladder_options
@click.option(
    "--concurrency",
    default=DEFAULT_CONCURRENCY,
    show_default=True,
    help="Matches in flight at once.",
)
@friendly_errors
def ladder_start(
    name: str, redis_url: str | None, game: str | None, rules_version: int | None, concurrency: int
) -> None:
    """Start ladder NAME: the workers (`arena worker`) keep its bots playing rated matches."""
    from arena.services import ladders

    client = _client(redis_url)
    ref = _ladder(client, name, game, rules_version).ref
    console.print(f"{ladders.started(ref, ladders.start(client, ref, concurrency))}.")


@click.command("stop")
@click.argument("name")
@REDIS_OPTION
@ladder_options
@friendly_errors
def ladder_stop(
    name: str, redis_url: str | None, game: str | None, rules_version: int | None
) -> None:
    """Stop ladder NAME: nothing more is paired or played; its ratings stay."""
    from arena.services import ladders

    client = _client(redis_url)
    ref = _ladder(client, name, game, rules_version).ref
    ladders.stop(client, ref)
    console.print(f"{ladders.stopped(ref)}; `arena ladder resume {name}` opens it again.")


@click.command("resume")
@click.argument("name")
@REDIS_OPTION
@ladder_options
@friendly_errors
def ladder_resume(
    name: str, redis_url: str | None, game: str | None, rules_version: int | None
) -> None:
    """Open a stopped ladder NAME again: the workers keep its bots playing."""
    from arena.services import ladders

    client = _client(redis_url)
    ref = _ladder(client, name, game, rules_version).ref
    console.print(ladders.resumed(ref, ladders.resume(client, ref)))
