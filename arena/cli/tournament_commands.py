"""`arena worker` and `arena tournament ...`: organising tournaments the worker pool plays."""

from __future__ import annotations

import click

from arena.cli.common import REDIS_OPTION, console, friendly_errors
from arena.tournament.definition import TimeControl


@click.command()
@REDIS_OPTION
@click.option("--processes", "-p", default=1, show_default=True, help="Worker processes.")
@click.option("--burst", is_flag=True, help="Stop when the queue is empty.")
@click.option("--name", help="Worker name (a suffix -N is added per process); default random.")
@friendly_errors
def worker(redis_url: str | None, processes: int, burst: bool, name: str | None) -> None:
    """Run RQ workers that play tournament matches."""
    from arena.cli.network import require_redis_url
    from workers.worker import work, work_pool

    url = require_redis_url(redis_url)
    if processes < 1:
        raise click.ClickException("--processes must be at least 1")
    if processes == 1 or burst:
        work(url, burst=burst, name=name)
    else:
        work_pool(url, processes, name)


@click.group("tournament")
def tournament_group() -> None:
    """Create, start and follow Swiss and round-robin tournaments."""


@tournament_group.command("create")
@click.argument("name")
@REDIS_OPTION
@click.option(
    "--format",
    "format_",
    type=click.Choice(["swiss", "round-robin", "double-round-robin"]),
    default="swiss",
    show_default=True,
)
@click.option(
    "--rounds", type=int, help="Swiss rounds (default: log2 of the field); round robins need none."
)
@click.option("--game", default="caper", show_default=True)
@click.option("--city", default="paris", show_default=True)
@click.option("--entrants", required=True, help="Comma-separated, in seed order.")
@click.option("--games-per-match", default=2, show_default=True)
@click.option("--no-duplicate", is_flag=True, help="Fresh deals instead of mirrored pairs.")
@click.option("--time-control", default="1000+10000", show_default=True, help="MOVE_MS+BANK_MS")
@click.option("--seed", default=1, show_default=True)
@click.option(
    "--tiebreaks",
    help="Comma-separated, in order: buchholz, buchholz_cut1, sonneborn_berger, wins, "
    "direct_encounter, game_points (default: by format).",
)
@friendly_errors
def tournament_create(
    name: str,
    redis_url: str | None,
    format_: str,
    rounds: int | None,
    game: str,
    city: str,
    entrants: str,
    games_per_match: int,
    no_duplicate: bool,
    time_control: str,
    seed: int,
    tiebreaks: str | None,
) -> None:
    """Define tournament NAME (it starts with `arena tournament start NAME`)."""
    from arena.cli import tournaments
    from arena.cli.network import require_redis_url
    from arena.store.server import connect

    names = [e.strip() for e in entrants.split(",") if e.strip()]
    definition = tournaments.create(
        connect(require_redis_url(redis_url)),
        name,
        format_,
        names,
        rounds,
        game,
        city,
        games_per_match,
        not no_duplicate,
        parse_time_control(time_control),
        seed,
        [t for t in (tiebreaks or "").split(",") if t.strip()],
    )
    console.print(
        f"Created {definition.format.value} {name}: {len(definition.entrants)} entrants, "
        f"{definition.planned_rounds} rounds, {definition.games_per_match} games a match."
    )


def parse_time_control(text: str) -> TimeControl:
    from arena.tournament.definition import TimeControl

    move, _, bank = text.partition("+")
    if not move.isdigit() or (bank and not bank.isdigit()):
        raise click.ClickException(
            f"--time-control is MOVE_MS+BANK_MS, e.g. 1000+10000, not {text!r}"
        )
    return TimeControl(move_ms=int(move), bank_ms=int(bank or 0))


@tournament_group.command("start")
@click.argument("name")
@REDIS_OPTION
@click.option("--watch", is_flag=True, help="Show live progress until it ends.")
@friendly_errors
def tournament_start(name: str, redis_url: str | None, watch: bool) -> None:
    """Schedule the tournament's first round (Swiss) or all rounds (round robin)."""
    from arena.cli import tournaments
    from arena.cli.network import require_redis_url
    from arena.store.server import connect

    client = connect(require_redis_url(redis_url))
    rounds = tournaments.start(client, name)
    console.print(f"Started {name}: {rounds} round(s) scheduled; workers play them.")
    if watch:
        tournaments.watch(console, client, name)
        console.print(tournaments.standings_table(client, name))


@tournament_group.command("status")
@click.argument("name")
@REDIS_OPTION
@click.option("--watch", is_flag=True, help="Show live progress until it ends.")
@friendly_errors
def tournament_status(name: str, redis_url: str | None, watch: bool) -> None:
    """How far the tournament has got."""
    from arena.cli import tournaments
    from arena.cli.network import require_redis_url
    from arena.store.server import connect

    client = connect(require_redis_url(redis_url))
    if watch:
        tournaments.watch(console, client, name)
    done, scheduled, planned, status = tournaments.progress(client, name)
    console.print(
        f"{name}: {status.value}; {done} of {scheduled} scheduled matches played; "
        f"{planned} rounds planned"
    )


@tournament_group.command("standings")
@click.argument("name")
@REDIS_OPTION
@friendly_errors
def tournament_standings(name: str, redis_url: str | None) -> None:
    """The table: points, then the tie-breaks."""
    from arena.cli import tournaments
    from arena.cli.network import require_redis_url
    from arena.store.server import connect

    console.print(tournaments.standings_table(connect(require_redis_url(redis_url)), name))


@tournament_group.command("crosstable")
@click.argument("name")
@REDIS_OPTION
@friendly_errors
def tournament_crosstable(name: str, redis_url: str | None) -> None:
    """Who scored what against whom."""
    from arena.cli import tournaments
    from arena.cli.network import require_redis_url
    from arena.store.server import connect

    console.print(tournaments.crosstable_table(connect(require_redis_url(redis_url)), name))


@tournament_group.command("export")
@click.argument("name")
@REDIS_OPTION
@click.option("--format", "fmt", type=click.Choice(["json", "csv", "trf"]), default="json")
@friendly_errors
def tournament_export(name: str, redis_url: str | None, fmt: str) -> None:
    """Print standings and results as JSON, CSV or a FIDE TRF file."""
    from arena.cli import tournaments
    from arena.cli.network import require_redis_url
    from arena.store.server import connect

    click.echo(tournaments.export(connect(require_redis_url(redis_url)), name, fmt), nl=False)
