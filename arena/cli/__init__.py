"""The `arena` command. Each subcommand is a thin shell over library code; errors in what the user
typed become one clear line on stderr, never a traceback."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import ParamSpec, TypeVar

import click
import redis
from rich.console import Console

from arena.games.api import GameError
from arena.tournament.definition import TimeControl

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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="caper-arena")
def main() -> None:
    """Caper Arena: tournaments and rated ladders for Caper-playing bots."""


@main.command()
@click.argument("bot_a")
@click.argument("bot_b")
@click.option("--games", "-n", default=10, show_default=True, help="Deals to play.")
@click.option("--seed", default=1, show_default=True, help="Seed of the first deal.")
@click.option("--game", "game_id", default="caper", show_default=True, help="Which game.")
@click.option("--city", default="paris", show_default=True, help="City: paris, rome or london.")
@click.option("--duplicate", is_flag=True, help="Play every deal twice with seats swapped.")
@click.option(
    "--save", type=click.Path(file_okay=False, path_type=Path), help="Write game records here."
)
@friendly_errors
def play(
    bot_a: str,
    bot_b: str,
    games: int,
    seed: int,
    game_id: str,
    city: str,
    duplicate: bool,
    save: Path | None,
) -> None:
    """Play BOT_A against BOT_B locally and print the statistics."""
    from arena.cli.local import run_play

    run_play(console, bot_a, bot_b, games, seed, game_id, {"city": city}, duplicate, save)


@main.command()
@click.argument("record", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--seat", type=click.IntRange(0, 1), help="Show only what this seat could see.")
@friendly_errors
def replay(record: Path, seat: int | None) -> None:
    """Replay a saved game RECORD turn by turn, with its score breakdown."""
    from arena.cli.local import run_replay

    run_replay(console, record, seat)


@main.group()
def bench() -> None:
    """Measure speed. Figures are printed, never asserted."""


@bench.command("engine")
@click.option("--seconds", default=5.0, show_default=True, help="How long to measure.")
@click.option("--game", "game_id", default="caper", show_default=True)
@click.option("--city", default="paris", show_default=True)
@friendly_errors
def bench_engine(seconds: float, game_id: str, city: str) -> None:
    """Random-vs-random full games per second on one core, and decisions per second."""
    from arena.bench import engine_throughput

    figures = engine_throughput(game_id, {"city": city}, seconds)
    console.print(
        f"{game_id} ({city}): {figures.games_per_second:,.0f} games/s, "
        f"{figures.decisions_per_second:,.0f} decisions/s "
        f"({figures.games} games, {figures.decisions / figures.games:.1f} decisions each, "
        f"{figures.seconds:.1f} s of CPU time on one core, {figures.wall_seconds:.1f} s wall)"
    )


@main.command()
@click.option("--game", "game_id", default="caper", show_default=True)
@click.option("--city", help="Only the cards of this city (and the base cards).")
@friendly_errors
def cards(game_id: str, city: str | None) -> None:
    """List the card catalogue."""
    from arena.cli.local import run_cards

    run_cards(console, game_id, city)


REDIS_OPTION = click.option(
    "--redis-url",
    envvar="REDIS_URL",
    help="Redis server, e.g. redis://host:6379/0 [env: REDIS_URL].",
)


@main.command()
@REDIS_OPTION
@click.option("--embedded-redis", is_flag=True, help="Start a private Redis when none is given.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=50051, show_default=True, help="gRPC port.")
@click.option("--admin-token", envvar="ARENA_ADMIN_TOKEN", help="Token for admin calls.")
@friendly_errors
def serve(
    redis_url: str | None, embedded_redis: bool, host: str, port: int, admin_token: str | None
) -> None:
    """Run the gateway: bots connect here, organisers call ArenaService."""
    from arena.cli.network import run_serve

    run_serve(console, redis_url, embedded_redis, host, port, admin_token)


@main.group()
def bot() -> None:
    """Register and list remote bots."""


@bot.command("register")
@click.argument("name")
@REDIS_OPTION
@friendly_errors
def bot_register(name: str, redis_url: str | None) -> None:
    """Register a bot called NAME and print its secret token (once)."""
    from arena.cli.network import run_register

    run_register(console, redis_url, name)


@bot.command("list")
@REDIS_OPTION
@friendly_errors
def bot_list(redis_url: str | None) -> None:
    """List registered bots and whether each is connected."""
    from arena.cli.network import run_list

    run_list(console, redis_url)


@main.command()
@click.argument("player_a")
@click.argument("player_b")
@REDIS_OPTION
@click.option("--games", "-n", default=2, show_default=True, help="Games to play.")
@click.option("--seed", default=1, show_default=True)
@click.option("--city", default="paris", show_default=True)
@click.option("--move-ms", default=1000, show_default=True, help="Time for each move.")
@click.option("--bank-ms", default=10_000, show_default=True, help="Reserve for the whole game.")
@click.option("--strikes", default=3, show_default=True, help="Missed deadlines that lose.")
@click.option("--grace-ms", default=10_000, show_default=True, help="Reconnect allowance.")
@click.option("--no-duplicate", is_flag=True, help="Fresh deals instead of mirrored pairs.")
@friendly_errors
def match(
    player_a: str,
    player_b: str,
    redis_url: str | None,
    games: int,
    seed: int,
    city: str,
    move_ms: int,
    bank_ms: int,
    strikes: int,
    grace_ms: int,
    no_duplicate: bool,
) -> None:
    """Play PLAYER_A against PLAYER_B through the gateway (registered or built-in bots)."""
    from arena.cli.network import run_match
    from arena.match.referee import FaultPolicy

    policy = FaultPolicy(move_ms, bank_ms, strikes, grace_ms)
    run_match(console, redis_url, (player_a, player_b), games, seed, city, policy, not no_duplicate)


@main.command()
@REDIS_OPTION
@click.option("--processes", "-p", default=1, show_default=True, help="Worker processes.")
@click.option("--burst", is_flag=True, help="Stop when the queue is empty.")
@friendly_errors
def worker(redis_url: str | None, processes: int, burst: bool) -> None:
    """Run RQ workers that play tournament matches."""
    from arena.cli.network import require_redis_url
    from workers.worker import work, work_pool

    url = require_redis_url(redis_url)
    if processes < 1:
        raise click.ClickException("--processes must be at least 1")
    if processes == 1 or burst:
        work(url, burst=burst)
    else:
        work_pool(url, processes)


@main.group("tournament")
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
@click.option("--rounds", type=int, help="Swiss rounds (round robins need none).")
@click.option("--game", default="caper", show_default=True)
@click.option("--city", default="paris", show_default=True)
@click.option("--entrants", required=True, help="Comma-separated, in seed order.")
@click.option("--games-per-match", default=2, show_default=True)
@click.option("--no-duplicate", is_flag=True, help="Fresh deals instead of mirrored pairs.")
@click.option("--time-control", default="1000+10000", show_default=True, help="MOVE_MS+BANK_MS")
@click.option("--seed", default=1, show_default=True)
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


@main.command()
@click.option("--games", "-n", default=4, show_default=True, help="Deals per pairing.")
@click.option("--seed", default=1, show_default=True)
@click.option("--city", default="paris", show_default=True)
@friendly_errors
def demo(games: int, seed: int, city: str) -> None:
    """A round robin of the built-in bots with live progress and a final table."""
    from arena.cli.local import run_demo

    run_demo(console, games, seed, {"city": city})


if __name__ == "__main__":  # pragma: no cover
    main()
