"""`arena ladder ...`, `arena metrics` and `arena bench ratings`: rated ladders and their metrics.

Registered on the main command group by `arena.cli`; each command is a thin shell over
`arena.services.ladders`, `arena.store` (ratings), `workers.matchmaker` (`ladder run`) and
`arena.metrics`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

import click
import redis
from rich.table import Table

from arena.cli.common import CITY_OPTION, REDIS_OPTION, console, event_seed_option, friendly_errors
from arena.listening import EXPORTER_PORT, LOOPBACK
from arena.store.ladders import LadderDefinition

F = TypeVar("F", bound=Callable[..., Any])


def ladder_options(command: F) -> F:
    """--game and --rules-version: which ladder NAME is, when more than one has that name
    (the name alone finds its game; the current rules by default)."""
    command = click.option(
        "--rules-version", type=int, help="Rules version of the ladder [default: current]."
    )(command)
    return click.option(
        "--game", help="The ladder's game, when ladders of several games share NAME."
    )(command)


def _client(redis_url: str | None) -> redis.Redis:
    from arena.cli.network import require_redis_url
    from arena.store.server import connect

    return connect(require_redis_url(redis_url))


def _ladder(
    client: redis.Redis, name: str, game: str | None, rules_version: int | None
) -> LadderDefinition:
    from arena.services import ladders

    return ladders.find(client, name, game, rules_version)


@click.group("ladder")
def ladder_group() -> None:
    """Rated ladders: create one, start it on the workers (or run it here), show and rebuild its
    ratings."""


@ladder_group.command("create")
@click.argument("name")
@REDIS_OPTION
@click.option("--game", default="caper", show_default=True, help="Which game.")
@click.option("--k", "k", default=32.0, show_default=True, help="Elo K factor (positive).")
@click.option("--tau", default=0.5, show_default=True, help="Glicko-2 volatility constraint.")
@click.option(
    "--provisional-rd", default=110.0, show_default=True, help="Provisional above this RD."
)
@click.option("--bots", default="random,greedy", show_default=True, help="Built-in bots.")
@click.option(
    "--no-remote", is_flag=True, help="Leave registered bots out (connected and hosted ones)."
)
@CITY_OPTION
@click.option(
    "--players",
    default=2,
    show_default=True,
    help="2; 3: tables of the Snitch game, rated by Weng-Lin only; 4: teams (a bot plays both "
    "seats of its team), rated like pairs.",
)
@click.option(
    "--games-per-match",
    type=int,
    help="One duplicate set per match: 2 for pairs (even), 3 for a table (a multiple of 3).",
)
@click.option("--time-control", default="1000+10000", show_default=True, help="MOVE_MS+BANK_MS")
@event_seed_option("the ladder's deals")
@friendly_errors
def ladder_create(
    name: str,
    redis_url: str | None,
    game: str,
    k: float,
    tau: float,
    provisional_rd: float,
    bots: str,
    no_remote: bool,
    city: str | None,
    players: int,
    games_per_match: int | None,
    time_control: str,
    seed: int,
) -> None:
    """Create ladder NAME; its rating constants are fixed from then on."""
    from arena.services import events, ladders

    definition = ladders.create(
        _client(redis_url), name, game, ladders.params(k, tau, provisional_rd),
        ladders.bot_list(bots), not no_remote, city, players, games_per_match,
        events.parse_time_control(time_control), seed,
    )  # fmt: skip
    console.print(f"{ladders.created(definition)}; seed {seed}.")


@ladder_group.command("bots")
@click.argument("name")
@click.argument("bots")
@REDIS_OPTION
@ladder_options
@friendly_errors
def ladder_bots(
    name: str, bots: str, redis_url: str | None, game: str | None, rules_version: int | None
) -> None:
    """Set the built-in BOTS (comma-separated) that ladder NAME keeps playing."""
    from arena.services import ladders

    client = _client(redis_url)
    ref = _ladder(client, name, game, rules_version).ref
    definition = ladders.set_bots(client, ref, ladders.bot_list(bots))
    console.print(ladders.plays(definition))


@ladder_group.command("list")
@REDIS_OPTION
@friendly_errors
def ladder_list(redis_url: str | None) -> None:
    """Every ladder, with its constants and size."""
    from arena.store.ladders import LadderStore
    from arena.store.ratings import RatingStore

    client = _client(redis_url)
    table = Table(title="Ladders")
    for column in ("ladder", "state", "game", "players", "K", "tau", "bots", "rated"):
        table.add_column(column)
    for d in LadderStore(client).all():
        shape = {3: "3 (tables)", 4: "4 (teams)"}.get(d.players, str(d.players))
        table.add_row(
            d.ref.name,
            LadderStore(client).state(d.ref).value,
            f"{d.ref.game} v{d.ref.rules_version}",  # its rules version
            shape,
            "-" if d.tables else f"{d.params.k:g}",  # Elo and Glicko-2 do not rate tables
            "-" if d.tables else f"{d.params.glicko.tau:g}",
            ", ".join(d.bots) + (" + remote" if d.remote else ""),
            str(RatingStore(client).player_count(d)),
        )
    console.print(table)


@ladder_group.command("show")
@click.argument("name")
@REDIS_OPTION
@ladder_options
@click.option("--limit", default=50, show_default=True, help="Rows to show.")
@click.option(
    "--by",
    type=click.Choice(["elo", "glicko", "ordinal"]),
    help="Sort by Elo, Glicko-2 or the Weng-Lin ordinal (mu - 3 sigma) [default: elo; ordinal "
    "for a ladder of tables, which only Weng-Lin rates].",
)
@friendly_errors
def ladder_show(
    name: str,
    redis_url: str | None,
    game: str | None,
    rules_version: int | None,
    limit: int,
    by: str | None,
) -> None:
    """The table of ladder NAME: ratings, deviations, games and win rates."""
    from arena.cli.ladder_views import standings_table

    client = _client(redis_url)
    console.print(standings_table(client, _ladder(client, name, game, rules_version), by, limit))


@ladder_group.command("history")
@click.argument("name")
@click.argument("bot")
@REDIS_OPTION
@ladder_options
@friendly_errors
def ladder_history(
    name: str, bot: str, redis_url: str | None, game: str | None, rules_version: int | None
) -> None:
    """BOT's ratings on ladder NAME after each of its rated results."""
    from arena.cli.ladder_views import history_table

    client = _client(redis_url)
    console.print(history_table(client, _ladder(client, name, game, rules_version), bot))


@ladder_group.command("run")
@click.argument("name")
@REDIS_OPTION
@ladder_options
@click.option("--max-matches", type=click.IntRange(min=1), help="Stop after this many matches.")
@click.option("--once", is_flag=True, help="Pair the idle bots once, wait, and stop.")
@click.option("--concurrency", default=2, show_default=True, help="Matches in flight at once.")
@click.option("--inline", is_flag=True, help="Play the matches in this process (no workers).")
@click.option("--seed", type=int, help="Seed of the matchmaker's choices.")
@click.option("--poll", default=1.0, show_default=True, help="Seconds between checks.")
@friendly_errors
def ladder_run(
    name: str,
    redis_url: str | None,
    game: str | None,
    rules_version: int | None,
    max_matches: int | None,
    once: bool,
    concurrency: int,
    inline: bool,
    seed: int | None,
    poll: float,
) -> None:
    """Start ladder NAME and follow its matches as the workers play them (or --inline, this
    process plays them). Without --max-matches the ladder goes on playing on the workers once
    this stops (Ctrl-C); `arena ladder stop NAME` stops it."""
    from arena.cli.ladder_views import print_match, standings_table
    from workers.matchmaker import Matchmaker, run_ladder

    client = _client(redis_url)
    definition = _ladder(client, name, game, rules_version)
    maker = Matchmaker(client, definition, concurrency, seed, print_match(console))
    where = "in this process" if inline else "by the workers (`arena worker`)"
    console.print(f"Ladder {definition.ref}: matches are played {where}; Ctrl-C stops.")
    try:
        summary = run_ladder(maker, max_matches, once, inline, poll)
    except KeyboardInterrupt:
        left = len(maker.summary.in_flight)
        console.print(
            f"Stopped following; {left} match(es) in flight are still played and rated, and "
            f"the workers keep the ladder playing until `arena ladder stop {name}`."
        )
        return
    console.print(
        f"{summary.enqueued} matches: {summary.finished} played, {summary.failed} failed."
    )
    console.print(standings_table(client, maker.definition, None, 20))


@ladder_group.command("rebuild")
@click.argument("name")
@REDIS_OPTION
@ladder_options
@click.option("--check", is_flag=True, help="Only compare the replay with the stored ratings.")
@friendly_errors
def ladder_rebuild(
    name: str, redis_url: str | None, game: str | None, rules_version: int | None, check: bool
) -> None:
    """Recompute every rating of ladder NAME from its stored results, in their stored order."""
    from arena.store.ratings.rebuild import rebuild

    client = _client(redis_url)
    definition = _ladder(client, name, game, rules_version)
    started = time.perf_counter()
    report = rebuild(client, definition, write=not check)
    seconds = time.perf_counter() - started
    verdict = (
        "identical to the stored ratings"
        if report.identical
        else f"different for {len(report.mismatched)} bot(s): {', '.join(report.mismatched[:10])}"
    )
    action = "checked" if check else "rebuilt"
    console.print(
        f"Ladder {definition.ref} {action}: {report.results} results, {report.players} bots "
        f"in {seconds:.2f} s; the replay was {verdict}."
    )
    if check and not report.identical:
        raise SystemExit(1)


@click.command("metrics")
@REDIS_OPTION
@click.option("--host", default=LOOPBACK, show_default=True, help="Address to listen on.")
@click.option("--port", default=EXPORTER_PORT, show_default=True, help="HTTP port for /metrics.")
@click.option("--top-n", default=100, show_default=True, help="Bots per ladder to export.")
@friendly_errors
def metrics_command(redis_url: str | None, host: str, port: int, top_n: int) -> None:
    """Serve the arena's Prometheus metrics (read from Redis at each scrape) on /metrics."""
    from arena.cli.network import require_redis_url
    from arena.metrics.server import SCRAPE_PATIENCE_S, start_metrics_server
    from arena.store.outages import connect_patiently

    # A scrape waits out a Redis restart of a few seconds; a longer one reads arena_redis_up 0.
    client = connect_patiently(require_redis_url(redis_url), SCRAPE_PATIENCE_S)
    server = start_metrics_server(client, host, port, top_n)
    console.print(f"Metrics on http://{host}:{server.port}/metrics; Ctrl-C stops.")
    try:
        server.thread.join()
    except KeyboardInterrupt:
        server.stop()


@click.command("ratings")
@REDIS_OPTION
@click.option("--bots", default=10_000, show_default=True, help="Rated bots to create.")
@click.option("--updates", default=5_000, show_default=True, help="Rated results to time.")
@click.option("--processes", default=1, show_default=True, help="Processes applying them.")
@click.option("--scrapes", default=5, show_default=True, help="Scrapes to time.")
@click.option(
    "--batched", default=40_000, show_default=True, help="Results to time in batches (0: none)."
)
@friendly_errors
def bench_ratings_command(
    redis_url: str | None, bots: int, updates: int, processes: int, scrapes: int, batched: int
) -> None:
    """Rated updates per second one at a time and in batches by one writer (pairs, and
    3-player tables for Weng-Lin), and /metrics scrape time."""
    from arena.bench.ratings import run_bench

    run_bench(console, redis_url, bots, updates, processes, scrapes, batched)


# Declared, not inferred: `arena.cli` imports these while it is itself being imported.
ladder: click.Group = ladder_group
metrics: click.Command = metrics_command
bench_ratings: click.Command = bench_ratings_command
