"""`arena ladder stop|resume`: a ladder's state. Created until its matchmaker first runs, then
running; a stopped ladder's matchmakers stop pairing and its queued matches are not played
(its ratings stay) until it is resumed (`arena.tournament.lifecycle`)."""

from __future__ import annotations

import click

from arena.cli.common import REDIS_OPTION, console, friendly_errors
from arena.cli.ratings import _client, _ladder, ladder_options


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
    """Open a stopped ladder NAME again (`arena ladder run` then plays it)."""
    from arena.services import ladders

    client = _client(redis_url)
    ref = _ladder(client, name, game, rules_version).ref
    ladders.resume(client, ref)
    console.print(ladders.resumed(ref))
