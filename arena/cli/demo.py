"""`arena demo`: the whole arena on one machine, started, used and stopped in a few minutes.

A real Redis (embedded unless REDIS_URL is set), the gRPC gateway, two RQ worker processes and an
external bot process written with the Python SDK; a Swiss tournament of the built-in bots of
every strength and the external bot, with duplicate matches, live progress, the final standings
and crosstable. The web site follows it too (its URL is printed); with `keep` everything stays
up after the tournament until Ctrl-C.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import redis
from rich.console import Console

from arena.cli import tournament_watch, tournaments
from arena.gateway.server import GatewaySettings, GatewayThread
from arena.listening import LOOPBACK, WEB_PORT
from arena.services import events
from arena.store.bots import BotRegistry
from arena.store.server import connect, redis_url
from arena.store.tournaments import Status
from arena.tournament.definition import TimeControl
from workers.processes import python_process, worker_pool

# Every strength of built-in bot, from random play to a few hundred rollouts a move. The search
# bots count iterations rather than milliseconds, so a rerun of the demo gives the same games.
BUILTIN_FIELD = (
    "random",
    "greedy",
    "search#8",
    "search#16",
    "search#32",
    "search#64",
    "search#128",
)
WORKERS = 2
BOT_ONLINE_TIMEOUT_S = 30


@dataclass(frozen=True, slots=True)
class DemoOptions:
    rounds: int = 3
    games_per_match: int = 4
    seed: int = 1
    game: str = "caper"  # or "caper-europe": the same demo plays either edition
    city: str | None = None  # the game's default city, for a game that has cities
    keep: bool = False  # leave the arena running after the tournament, until Ctrl-C


def run_demo(console: Console, options: DemoOptions) -> Status:
    with redis_url() as url, tempfile.TemporaryDirectory(prefix="arena-demo-") as logs:
        client = connect(url)
        suffix = secrets.token_hex(3)  # a shared REDIS_URL may hold earlier demos
        kept = "" if os.environ.get("REDIS_URL") else " (ephemeral: deleted when the demo stops)"
        console.print(f"[bold]Redis[/] {url}{kept}")
        gateway = GatewayThread(GatewaySettings(url, "127.0.0.1", 0)).start()
        console.print(f"[bold]Gateway[/] listening on {gateway.target}")
        try:
            with (
                _web_site(client) as site,
                _processes(url, gateway.target, client, suffix, Path(logs)) as external,
            ):
                console.print(f"[bold]Web site[/] {site}")
                status = _tournament(console, client, f"demo-{suffix}", external, options)
                if options.keep:
                    _wait_for_ctrl_c(console, site)
                return status
        finally:
            gateway.stop()
            console.print("Gateway, workers and the external bot stopped.")


@contextlib.contextmanager
def _web_site(client: redis.Redis) -> Iterator[str]:
    """The web site on port 8080, or on a free port if something else holds that one."""
    from arena.web.server import WebError, bind, serving_on  # starting the site, and only then

    try:
        sock = bind(LOOPBACK, WEB_PORT)
    except WebError:
        sock = bind("127.0.0.1", 0)
    with serving_on(client, sock) as site:
        yield site


def _wait_for_ctrl_c(console: Console, site: str) -> None:
    console.print(f"The arena keeps running (web site {site}); Ctrl-C stops it.")
    with contextlib.suppress(KeyboardInterrupt):
        while True:
            time.sleep(1)


@contextlib.contextmanager
def _processes(
    url: str, target: str, client: redis.Redis, suffix: str, logs: Path
) -> Iterator[str]:
    """Start the worker pool and the external SDK bot; stop them all on the way out."""
    bot_name = f"sdk-{suffix}"
    info, token = BotRegistry(client).register(bot_name)
    with worker_pool(url, WORKERS, logs, f"demo-{suffix}"):
        bot_args = ["-m", "bots_sdk.examples.random_bot", "--target", target, "--token", token]
        with python_process(bot_args, logs / "sdk-bot.log") as bot:
            _wait_online(BotRegistry(client), info.bot_id, bot, logs / "sdk-bot.log")
            yield bot_name


def _wait_online(
    registry: BotRegistry, bot_id: str, process: subprocess.Popen[bytes], log: Path
) -> None:
    deadline = time.monotonic() + BOT_ONLINE_TIMEOUT_S
    while not registry.is_online(bot_id):
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the external bot did not connect; its log:\n{log.read_text()}")
        time.sleep(0.05)


def _tournament(
    console: Console, client: redis.Redis, name: str, external: str, options: DemoOptions
) -> Status:
    entrants = [*BUILTIN_FIELD, external]
    time_control = TimeControl(move_ms=2000, bank_ms=10_000, max_strikes=3, grace_ms=5000)
    definition = events.create(
        client, name, "swiss", entrants, options.rounds, options.game, options.city,
        options.games_per_match, True, time_control, options.seed,
    )  # fmt: skip
    rounds_text = _plural(definition.planned_rounds, "round")
    where = definition.config.get("city", "one board")
    console.print(
        f"[bold]Swiss[/] {name} of {options.game} ({where}): "
        f"{len(entrants)} entrants "
        f"({external} plays over gRPC), "
        f"{rounds_text}, {options.games_per_match} games a match (duplicate deals), played by "
        f"{WORKERS} worker processes"
    )
    started = time.monotonic()
    events.start(client, name)
    status = tournament_watch.watch(console, client, name, timeout_s=600)
    console.print(f"{name} {status.value} in {time.monotonic() - started:.1f} s")
    console.print(tournaments.standings_table(client, name))
    console.print(tournaments.crosstable_table(client, name))
    return status


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
