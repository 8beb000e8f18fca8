"""The `arena` command. Each subcommand is a thin shell over library code; errors in what the user
typed become one clear line on stderr, never a traceback."""

from __future__ import annotations

from pathlib import Path

import click

from arena.cli.common import (
    CITY_OPTION,
    REDIS_OPTION,
    console,
    friendly_errors,
    sigterm_interrupts,
)
from arena.listening import GATEWAY_METRICS_PORT, GATEWAY_PORT, LOOPBACK

POSITIVE = click.IntRange(min=1)
NATURAL = click.IntRange(min=0)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="caper-arena")
@click.pass_context
def main(context: click.Context) -> None:
    """Caper Arena: play bots at Caper, Caper: Europe and Age of Thieves, locally or in
    tournaments, rated ladders and SPRT tests played by a worker pool."""
    # Every subcommand that starts processes stops them in `finally` blocks: on SIGTERM too.
    context.with_resource(sigterm_interrupts())


@main.command()
@click.argument("bots", nargs=-1, required=True)
@click.option("--games", "-n", default=10, show_default=True, help="Deals to play.")
@click.option("--seed", default=1, show_default=True, help="Seed of the first deal.")
@click.option("--game", "game_id", default="caper", show_default=True, help="Which game.")
@CITY_OPTION
@click.option(
    "--players",
    default=2,
    show_default=True,
    type=click.IntRange(min=2),
    help="Seats (caper): 3 is the Snitch game, a table of three bots; 4 the team game, two "
    "bots each playing both seats of its team. age-of-thieves: 2 to 4 thieves, one bot each.",
)
@click.option("--duplicate", is_flag=True, help="Play every deal once per rotation of the seats.")
@click.option(
    "--save", type=click.Path(file_okay=False, path_type=Path), help="Write game records here."
)
@click.option(
    "--no-sandbox",
    "unsandboxed",
    is_flag=True,
    help='Run "cmd:" programs directly, not in the sandbox (debugging).',
)
@click.option(
    "--runtime",
    "runtimes",
    multiple=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help='A folder "cmd:" programs may read, where it is (a virtualenv).',
)
@REDIS_OPTION
@friendly_errors
def play(
    bots: tuple[str, ...],
    games: int,
    seed: int,
    game_id: str,
    city: str | None,
    players: int,
    duplicate: bool,
    save: Path | None,
    unsandboxed: bool,
    runtimes: tuple[Path, ...],
    redis_url: str | None,
) -> None:
    """Play BOTS against each other locally and print the statistics: one bot a side, so two
    (also at --players 4, each bot playing both seats of its team), three at --players 3 (the
    Snitch game), and for age-of-thieves one a thief, 2 to 4. A bot "cmd:COMMAND" is a program
    run in the current folder, in a sandbox, speaking docs/program-protocol.md; a bot
    "hosted:NAME" the newest version submitted for bot NAME ("hosted:NAME@VERSION" that one),
    read from the store at --redis-url."""
    from arena.cli.local import run_play

    run_play(
        console, bots, players, games, seed, game_id, city, duplicate, save,
        not unsandboxed, runtimes, redis_url,
    )  # fmt: skip


@main.command()
@click.argument("record", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--seat", type=click.IntRange(0, 3), help="Show only what this seat could see.")
@friendly_errors
def replay(record: Path, seat: int | None) -> None:
    """Replay a saved game RECORD turn by turn, with its score breakdown."""
    from arena.cli.local import run_replay

    run_replay(console, record, seat)


@main.group()
def bench() -> None:
    """Measure speed. Figures are printed, never asserted."""


@bench.command("engine")
@click.option("--seconds", default=5.0, show_default=True, help="How long to measure each game.")
@click.option(
    "--game", "game_id", default="caper", show_default=True, help="A game id, or all of them."
)
@CITY_OPTION
@click.option(
    "--compare-compiled",
    is_flag=True,
    help="Every engine (Caper, Europe, Thieves): pure Python against the compiled build, in turns.",
)
@click.option(
    "--rounds",
    type=click.IntRange(1),
    help="With --compare-compiled: runs of each engine to compare.  [default: 3]",
)
@friendly_errors
def bench_engine(
    seconds: float, game_id: str, city: str | None, compare_compiled: bool, rounds: int | None
) -> None:
    """Random-vs-random full games per second on one core, and decisions per second."""
    from arena.bench.engine import engine_configs, engine_throughput
    from arena.compiled.loader import engine_line
    from arena.games import DEFAULT_CITY, GAMES
    from arena.games.api import ConfigError

    if compare_compiled:
        from arena.bench.compiled import run

        return run(console.print, seconds, rounds or 3, city or DEFAULT_CITY)
    if rounds is not None:
        raise click.UsageError("--rounds counts the runs of --compare-compiled: add that flag")
    console.print(engine_line())  # ARENA_COMPILED_ENGINE=1 loads the compiled engines
    for one in GAMES if game_id == "all" else [game_id]:
        try:
            configs = engine_configs(one, city)
        except ConfigError as error:
            if game_id != "all":
                raise
            console.print(f"{one} ({city}): skipped, {error}")
            continue
        for config in configs:
            figures = engine_throughput(one, config, seconds)
            players = config.get("players")
            where = str(config.get("city", "one board"))  # a game without cities: its board
            label = f"{where}, {players} players" if players else where
            console.print(
                f"{one} ({label}): {figures.games_per_second:,.0f} games/s, "
                f"{figures.decisions_per_second:,.0f} decisions/s "
                f"({figures.games} games, {figures.decisions / figures.games:.1f} decisions each, "
                f"{figures.seconds:.1f} s of CPU time on one core, "
                f"{figures.wall_seconds:.1f} s wall)"
            )


@main.command()
@click.option("--game", "game_id", default="caper", show_default=True)
@click.option("--city", help="Only the cards of this city (and the base cards).")
@friendly_errors
def cards(game_id: str, city: str | None) -> None:
    """List the card catalogue."""
    from arena.cli.local import run_cards

    run_cards(console, game_id, city)


@main.command()
@REDIS_OPTION
@click.option(
    "--embedded-redis",
    is_flag=True,
    help="Start a private Redis when none is given, keeping its data in --data-dir.",
)
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where the embedded Redis keeps its data [default: $XDG_DATA_HOME/caper-arena, "
    "else ~/.local/share/caper-arena].",
)
@click.option(
    "--ephemeral", is_flag=True, help="A throw-away embedded store, deleted when serve stops."
)
@click.option("--host", default=LOOPBACK, show_default=True, help="Address to listen on.")
@click.option("--port", default=GATEWAY_PORT, show_default=True, help="gRPC port.")
@click.option("--admin-token", envvar="ARENA_ADMIN_TOKEN", help="Token for admin calls.")
@click.option(
    "--metrics-port",
    default=GATEWAY_METRICS_PORT,
    show_default=True,
    help="/metrics port (the same series as `arena metrics`); 0: none.",
)
@friendly_errors
def serve(
    redis_url: str | None,
    embedded_redis: bool,
    data_dir: Path | None,
    ephemeral: bool,
    host: str,
    port: int,
    admin_token: str | None,
    metrics_port: int,
) -> None:
    """Run the gateway: bots connect here, organisers call ArenaService."""
    from arena.cli.network import EmbeddedStore, run_serve

    if (data_dir or ephemeral) and not embedded_redis:
        raise click.ClickException("--data-dir and --ephemeral go with --embedded-redis")
    store = EmbeddedStore(data_dir, ephemeral) if embedded_redis else None
    run_serve(console, redis_url, store, host, port, admin_token, metrics_port)


@main.group()
def bot() -> None:
    """Register and list bots; submit and list the versions of a hosted bot."""


@bot.command("register")
@click.argument("name")
@REDIS_OPTION
@click.option("--quiet", "-q", is_flag=True, help="Print only the token (for scripts).")
@friendly_errors
def bot_register(name: str, redis_url: str | None, quiet: bool) -> None:
    """Register a bot called NAME and print its secret token (once)."""
    from arena.cli.network import run_register

    run_register(console, redis_url, name, quiet)


@bot.command("list")
@REDIS_OPTION
@friendly_errors
def bot_list(redis_url: str | None) -> None:
    """List registered bots: connected or not (or revoked), and each hosted bot's newest
    version."""
    from arena.cli.network import run_list

    run_list(console, redis_url)


@main.command()
@click.argument("player_a")
@click.argument("player_b")
@REDIS_OPTION
@click.option("--games", "-n", default=2, type=POSITIVE, show_default=True, help="Games to play.")
@click.option("--seed", default=1, show_default=True, help="Seed of the first deal.")
@click.option(
    "--game",
    "game_id",
    default="caper",
    show_default=True,
    help="caper, caper-europe or age-of-thieves.",
)
@CITY_OPTION
@click.option("--move-ms", default=1000, type=POSITIVE, show_default=True, help="Time a move.")
@click.option(
    "--bank-ms", default=10_000, type=NATURAL, show_default=True, help="Reserve for a game."
)
@click.option("--strikes", default=3, type=POSITIVE, show_default=True, help="Misses that lose.")
@click.option(
    "--grace-ms", default=10_000, type=NATURAL, show_default=True, help="Reconnect allowance."
)
@click.option("--no-duplicate", is_flag=True, help="Fresh deals instead of mirrored pairs.")
@friendly_errors
def match(
    player_a: str,
    player_b: str,
    redis_url: str | None,
    games: int,
    seed: int,
    game_id: str,
    city: str | None,
    move_ms: int,
    bank_ms: int,
    strikes: int,
    grace_ms: int,
    no_duplicate: bool,
) -> None:
    """Play PLAYER_A against PLAYER_B through the gateway: built-in, hosted or registered bots
    (a registered one connected)."""
    from arena.cli.network import run_match
    from arena.referee.referee import FaultPolicy

    policy = FaultPolicy(move_ms, bank_ms, strikes, grace_ms)
    players = (player_a, player_b)
    run_match(console, redis_url, players, games, seed, city, policy, not no_duplicate, game_id)


@bench.command("protocol")
@REDIS_OPTION
@click.option("--bots", default=64, show_default=True, help="Remote SDK bots (even).")
@click.option("--seconds", default=10.0, show_default=True, help="How long to play.")
@click.option(
    "--parallel", default="1,4,32", show_default=True, help="Games at a time, one run each."
)
@friendly_errors
def bench_protocol(redis_url: str | None, bots: int, seconds: float, parallel: str) -> None:
    """Decision round trips through Redis, the gateway and gRPC to SDK bots: p50/p99, rate."""
    from arena.cli.network import run_bench_protocol

    levels = [int(n) for n in parallel.split(",") if n.strip().lstrip("-").isdigit()]
    run_bench_protocol(console, redis_url, bots, seconds, levels)


@main.command()
@click.option("--rounds", default=3, show_default=True, help="Swiss rounds.")
@click.option("--games-per-match", default=4, show_default=True, help="Even: duplicate deals.")
@click.option("--seed", default=1, show_default=True)
@click.option("--game", default="caper", show_default=True, help="caper or caper-europe.")
@CITY_OPTION
@click.option("--keep", is_flag=True, help="Leave the arena and its web site up until Ctrl-C.")
@friendly_errors
def demo(
    rounds: int, games_per_match: int, seed: int, game: str, city: str | None, keep: bool
) -> None:
    """The whole arena on this machine: Redis, gateway, two workers, the web site and an
    external SDK bot play a Swiss tournament with live progress, then print the standings and
    crosstable."""
    from arena.cli.demo import DemoOptions, run_demo
    from arena.store.tournaments import Status

    options = DemoOptions(rounds, games_per_match, seed, game, city, keep)
    if run_demo(console, options) is not Status.FINISHED:
        raise click.ClickException("the demo tournament did not finish")


# Bigger command families live in their own modules; registered here, after everything they
# import from this one is defined.
from arena.cli.bench_commands import BENCH_COMMANDS  # noqa: E402
from arena.cli.hosted_commands import bot_submit, bot_versions  # noqa: E402
from arena.cli.ladder_states import ladder_resume, ladder_start, ladder_stop  # noqa: E402
from arena.cli.ratings import bench_ratings, ladder, metrics  # noqa: E402
from arena.cli.sprt import sprt_group  # noqa: E402
from arena.cli.status_command import status  # noqa: E402
from arena.cli.store_commands import backup, restore  # noqa: E402
from arena.cli.swiss_compare import swiss_compare  # noqa: E402
from arena.cli.tournament_commands import bench_tournament, tournament_group  # noqa: E402
from arena.cli.tournament_states import tournament_list, tournament_stop  # noqa: E402
from arena.cli.web import bench_web, web  # noqa: E402
from arena.cli.worker_command import worker  # noqa: E402

main.add_command(worker)
main.add_command(tournament_group)
tournament_group.add_command(tournament_stop)
tournament_group.add_command(tournament_list)
bench.add_command(bench_tournament)
main.add_command(ladder)
ladder.add_command(ladder_start)
ladder.add_command(ladder_stop)
ladder.add_command(ladder_resume)
main.add_command(metrics)
bench.add_command(bench_ratings)
main.add_command(sprt_group)
main.add_command(web)
main.add_command(backup)
main.add_command(restore)
main.add_command(status)
bot.add_command(bot_submit)
bot.add_command(bot_versions)
bench.add_command(bench_web)
bench.add_command(swiss_compare)
for command in BENCH_COMMANDS:
    bench.add_command(command)


if __name__ == "__main__":  # pragma: no cover
    main()
