"""`arena tournament stop|list`: a tournament's state (created, running, finished, stopped), and
stopping one. Each state takes only the commands that fit it (`arena.tournament.lifecycle`)."""

from __future__ import annotations

import click
from rich.table import Table

from arena.cli.common import REDIS_OPTION, console, friendly_errors


@click.command("stop")
@click.argument("name")
@REDIS_OPTION
@friendly_errors
def tournament_stop(name: str, redis_url: str | None) -> None:
    """Stop a running tournament: nothing more is played, its results stay; `resume` goes on."""
    from arena.cli.network import require_redis_url
    from arena.services import events
    from arena.store.server import connect

    taken = events.stop(connect(require_redis_url(redis_url)), name)
    console.print(
        f"{name} stopped; {taken} queued jobs taken off the queue; its results stay "
        f"(`arena tournament resume {name}` goes on)."
    )


@click.command("list")
@REDIS_OPTION
@friendly_errors
def tournament_list(redis_url: str | None) -> None:
    """Every tournament with its state and how far it has got."""
    from arena.cli.network import require_redis_url
    from arena.services.events import progress
    from arena.store.server import connect
    from arena.store.tournaments import TournamentStore
    from arena.tournament.encounter import noun

    client = connect(require_redis_url(redis_url))
    store = TournamentStore(client)
    if not store.names():
        console.print("no tournament yet: `arena tournament create NAME --entrants A,B,...`")
        return
    table = Table(title="Tournaments")
    for column in ("name", "format", "game", "state", "rounds", "played", "why stopped"):
        table.add_column(column)
    for name in store.names():
        definition = store.get(name)
        now = progress(client, name, definition)
        unit = noun(definition, 2)
        table.add_row(
            name, definition.format.value, definition.game, now.status.value,
            f"{now.rounds} of {now.planned}", f"{now.done} of {now.scheduled} {unit}", now.reason,
        )  # fmt: skip
    console.print(table)
