"""`arena bench hosted`, `hosted-swiss`, `aot`, `web-replay`, `no-read-attack`, `recovery` and
`records`: the benchmarks in `arena.bench` that have no command group of their own. They measure
and print, never assert."""

from __future__ import annotations

import click
from rich.table import Table

from arena.cli.common import REDIS_OPTION, console, friendly_errors


@click.command("hosted-swiss")
@REDIS_OPTION
@click.option("--entrants", default=64, show_default=True, type=click.IntRange(2, 1000))
@click.option("--workers", default=2, show_default=True, type=click.IntRange(1, 64))
@click.option("--rounds", default=6, show_default=True, type=click.IntRange(1, 20))
@click.option("--games-per-match", default=2, show_default=True, type=click.IntRange(1, 100))
@friendly_errors
def bench_hosted_swiss(
    redis_url: str | None, entrants: int, workers: int, rounds: int, games_per_match: int
) -> None:
    """A Swiss of hosted random bots (a program each, sandboxed, started per match) played by
    WORKERS worker processes, next to the same Swiss of built-in random bots: games/s and CPU."""
    from arena.bench.hosted_swiss import report, run
    from arena.store.server import given_or_found

    with given_or_found(redis_url) as url:
        figures = run(url, entrants, workers, rounds, games_per_match)
    report(figures, workers, console.print)


@click.command("aot")
@click.argument("hero", required=False)
@click.argument("field", required=False)
@click.option(
    "--games",
    type=click.IntRange(1),
    help="Games (a row of the targets table)  [default: 200; 400 for the table]",
)
@click.option("--seed", default=0, show_default=True, help="Seed of the first game.")
@click.option("--players", default=4, show_default=True, type=click.IntRange(2, 4))
@click.option("--board", help="A board version, e.g. hadria-r1 (default: the current board).")
@click.option(
    "--duplicate",
    is_flag=True,
    help="2 players in duplicate pairs: each deal twice, seats swapped.",
)
@friendly_errors
def bench_aot(
    hero: str | None,
    field: str | None,
    games: int | None,
    seed: int,
    players: int,
    board: str | None,
    duplicate: bool,
) -> None:
    """How the HERO bot fares at Age of Thieves against FIELD bots in the other seats, seats
    rotated game by game (e.g. `greedy random`, `search#8 greedy`); with no bots named, the
    table of the targets for a fair start and for the bots, each beside its target."""
    from arena.bench.aot import run
    from arena.games.age_of_thieves.hadria import CURRENT_BOARD

    if hero is None:
        console.print(_targets_table(games or 400, seed))
        return
    if field is None:
        raise click.UsageError("name the FIELD bot too, or no bot for the targets table")
    if duplicate:
        from arena.bench.aot_targets import run_pairs

        run_pairs(hero, field, games or 200, seed, console.print, board or CURRENT_BOARD)
        return
    run(hero, field, games or 200, seed, console.print, players, board or CURRENT_BOARD)


def _targets_table(games: int, seed: int) -> Table:
    from arena.bench.aot_targets import target_rows

    table = Table(title=f"Age of Thieves targets, current board, seats rotated, seeds {seed}+")
    for column in ("measure", "games", "now", "target", "met"):
        table.add_column(column)
    for row in target_rows(games, seed, lambda text: console.print(f"measuring {text}...")):
        met = "yes" if row.met else "no"
        table.add_row(row.measure, str(row.games), row.figure, row.target, met)
    return table


@click.command("web-replay")
@click.option("--fetches", "-n", default=5, show_default=True, type=click.IntRange(1, 100))
@click.option("--browser", is_flag=True, help="Also time chromium drawing it.")
@friendly_errors
def bench_web_replay(fetches: int, browser: bool) -> None:
    """Load time of the game page of a 200-move replay (page, frames cold and warm, in full)."""
    from arena.bench.web_replay import replay_page

    console.print(replay_page(fetches, browser).line())


@click.command("no-read-attack")
@REDIS_OPTION
@friendly_errors
def bench_no_read_attack(redis_url: str | None) -> None:
    """The gateway's memory while a bot sends replies with oversized request ids and never
    reads what comes back."""
    from arena.bench.protocol import no_read_attacks

    no_read_attacks(redis_url, console.print)


@click.command("recovery")
@REDIS_OPTION
@click.option("--workers", default=3, show_default=True, type=click.IntRange(1, 64))
@click.option("--kills", default=5, show_default=True, type=click.IntRange(1, 100))
@friendly_errors
def bench_recovery(redis_url: str | None, workers: int, kills: int) -> None:
    """How long a SIGKILLed worker's match waits before it is played again, in a busy pool."""
    from arena.bench.recovery import run

    run(redis_url, workers, kills, console.print)


@click.command("records")
@click.option("--games", default=3000, show_default=True, type=click.IntRange(1))
@click.option(
    "--bot",
    default=None,
    help="A built-in bot (greedy, search#20...) in every other seat, random play in the rest: "
    "a second fingerprint, over what the bots read too.",
)
@friendly_errors
def bench_records(games: int, bot: str | None) -> None:
    """One sha256 over the records of GAMES seeded random games per game and variant: the same
    before and after a change that must not change the engines' behaviour."""
    from arena.bench.records import records_hash
    from arena.bots import make_bot

    if bot is not None:
        make_bot(bot)  # an unknown bot: its one-line error before any game
    label = "all variants" if bot is None else f"all variants with {bot}"
    console.print(f"{label}: {records_hash(games, console.print, bot)}")


@click.command("hosted")
@click.option("--starts", default=20, show_default=True, type=click.IntRange(1))
@click.option("--games", default=50, show_default=True, type=click.IntRange(1))
@friendly_errors
def bench_hosted(starts: int, games: int) -> None:
    """A program bot: sandbox start to its first message, and a decision's round trip over stdio
    with the arena's CPU per decision, next to the built-in random bot."""
    from arena.bench.hosted import run

    run(console.print, starts, games)


BENCH_COMMANDS = (
    bench_hosted,
    bench_hosted_swiss,
    bench_aot,
    bench_web_replay,
    bench_no_read_attack,
    bench_recovery,
    bench_records,
)
