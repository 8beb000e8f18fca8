"""Commands for a networked arena: the gateway, bot registration, matches through the gateway."""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import signal
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from arena.games import base_config, get_game
from arena.gateway.server import GatewaySettings, start_gateway
from arena.listening import address_text, bind_error_message
from arena.metrics.server import SCRAPE_PATIENCE_S, start_metrics_server
from arena.play.match import MatchVoidedError, play_match_replaying_voids
from arena.referee.referee import FaultPolicy, GameOutcome
from arena.services import bots
from arena.stats import mean_ci
from arena.store.bots import new_token
from arena.store.data_dir import default_data_dir, persistent_redis
from arena.store.outages import connect_patiently
from arena.store.server import connect, embedded_redis


def require_redis_url(url: str | None) -> str:
    if not url:
        raise click.ClickException(
            "no Redis server: pass --redis-url or set REDIS_URL "
            "(or run `arena serve --embedded-redis` and use the URL it prints)"
        )
    return url


@dataclass(frozen=True, slots=True)
class EmbeddedStore:
    """Where `serve --embedded-redis` keeps the store: a data directory, or nowhere."""

    data_dir: Path | None = None  # None: the default data directory
    ephemeral: bool = False  # a throw-away store, deleted when the gateway stops


@contextmanager
def gateway_redis(
    console: Console, url: str | None, embedded: EmbeddedStore | None
) -> Iterator[str]:
    if url or embedded is None:  # a Redis given (REDIS_URL) wins over an embedded one
        yield require_redis_url(url)
        return
    if embedded.ephemeral:
        if embedded.data_dir:
            raise click.ClickException("--ephemeral keeps no data: give it or --data-dir, not both")
        console.print("Data: ephemeral, deleted when the gateway stops (--ephemeral)")
        with embedded_redis() as started:
            yield started
        return
    folder = embedded.data_dir or default_data_dir()
    with persistent_redis(folder) as started:
        console.print(f"Data: {folder.expanduser().resolve()} (kept across restarts)")
        yield started


def run_serve(
    console: Console,
    url: str | None,
    embedded: EmbeddedStore | None,
    host: str,
    port: int,
    admin: str | None,
    metrics_port: int = 0,
) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    given = admin or os.environ.get("ARENA_ADMIN_TOKEN")
    with gateway_redis(console, url, embedded) as redis_location:
        console.print(f"Redis: {redis_location}")
        settings = GatewaySettings(redis_location, host, port, given or new_token(24))
        asyncio.run(_serve(console, settings, metrics_port, show_token=not given))
    console.print("Gateway stopped.")


async def _serve(
    console: Console, settings: GatewaySettings, metrics_port: int, show_token: bool
) -> None:
    """Listen first, then print the token: a second gateway on a taken port fails before it
    prints an admin token that would not work."""
    stopped = _stop_on_signals()
    _check_port_free(settings.host, settings.port)  # a clearer error than grpc's log lines
    try:
        gateway = await start_gateway(settings)
    except RuntimeError as error:  # grpc's "failed to bind", should the port be taken meanwhile
        address = address_text(settings.host, settings.port)
        raise OSError(f"cannot listen on {address}: {error}") from None
    metrics = None
    try:
        if metrics_port:
            # as `arena metrics`: a scrape waits out a short Redis restart
            scrape_client = connect_patiently(settings.redis_url, SCRAPE_PATIENCE_S)
            metrics = start_metrics_server(
                scrape_client, settings.host, metrics_port, port_option="--metrics-port"
            )
            console.print(f"Metrics on http://{settings.host}:{metrics.port}/metrics")
        if show_token:
            console.print(f"Admin token (generated, shown once): {settings.admin_token}")
        console.print(f"Bots connect to {settings.host}:{gateway.port}; Ctrl-C stops the gateway.")
        await stopped.wait()
    finally:
        # The whole gateway, hub loops included: left to asyncio.run's final cancellation, a
        # loop whose cancellation redis-py drops would keep the process from ever exiting.
        await gateway.stop(2)
        if metrics is not None:
            metrics.stop()


def _stop_on_signals() -> asyncio.Event:
    """An event set by SIGINT or SIGTERM: both stop the gateway the same, orderly way."""
    stopped = asyncio.Event()
    loop = asyncio.get_running_loop()
    for stop_signal in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(stop_signal, stopped.set)
    return stopped


def _check_port_free(host: str, port: int) -> None:
    if port == 0:
        return
    try:
        address = host.strip("[]")
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        with socket.create_server((address, port), family=family):
            pass
    except OSError as error:
        raise OSError(bind_error_message(host, port, error, "--port")) from None


def run_register(console: Console, url: str | None, name: str, quiet: bool = False) -> None:
    info, token = bots.register(connect(require_redis_url(url)), name)
    if quiet:
        click.echo(token)  # for scripts: `TOKEN=$(arena bot register NAME --quiet)`
        return
    console.print(f"Registered bot {info.name} with id {info.bot_id}.")
    console.print(f"Token (shown once, keep it secret): {token}")


def run_list(console: Console, url: str | None) -> None:
    table = Table(title="Registered bots")
    for column in ("name", "id", "connected", "hosted version"):
        table.add_column(column)
    for bot in bots.listing(connect(require_redis_url(url))):
        online = "yes" if bot.online else "no"
        if bot.info.revoked is not None:  # its results stay; it plays no more
            online = "revoked " + time.strftime("%Y-%m-%d", time.gmtime(bot.info.revoked))
        table.add_row(bot.info.name, bot.info.bot_id, online, bot.hosted or "-")
    console.print(table)


def run_match(
    console: Console,
    url: str | None,
    players: tuple[str, str],
    games: int,
    seed: int,
    city: str | None,
    policy: FaultPolicy,
    duplicate: bool,
    game_id: str = "caper",
) -> None:
    game = get_game(game_id)
    config = base_config(game_id, city)
    client = connect(require_redis_url(url))
    bots.check_players(client, game, config, players, seed)
    match_id = "m" + secrets.token_hex(4)
    try:
        outcomes = play_match_replaying_voids(
            client, game, config, players, games, seed, policy, match_id, duplicate,
            told=lambda line: console.print(line, markup=False, highlight=False),
        )  # fmt: skip
    except MatchVoidedError as error:
        raise click.ClickException(str(error)) from None
    console.print(_match_table(players, outcomes))


def _match_table(players: tuple[str, str], outcomes: list[GameOutcome]) -> Table:
    table = Table(title=f"{players[0]} vs {players[1]}: {len(outcomes)} games")
    for column in ("game", players[0], players[1], "winner", "ended by"):
        table.add_column(column)
    margins = []
    for outcome in outcomes:
        seat_of = {name: seat for seat, name in enumerate(outcome.record.players)}
        scores = [outcome.result.scores[seat_of[name]] for name in players]
        winner = (
            outcome.record.players[outcome.result.winner]
            if outcome.result.winner is not None
            else "-"
        )
        game_id = str(outcome.record.meta.get("game_id", ""))
        reason = outcome.termination.value + (f": {outcome.reason}" if outcome.reason else "")
        table.add_row(game_id, str(scores[0]), str(scores[1]), winner, reason)
        margins.append(scores[0] - scores[1])
    table.caption = f"mean margin for {players[0]}: {mean_ci(margins)}"
    return table


def run_bench_protocol(
    console: Console, url: str | None, bots: int, seconds: float, parallel: list[int]
) -> None:
    from arena.bench.protocol import round_trips
    from arena.store.server import given_or_found

    if bots < 2 or bots % 2:
        raise ValueError(f"--bots must be an even number of at least 2, got {bots}")
    if not parallel or min(parallel) < 1:
        raise ValueError("--parallel needs one or more positive numbers of games at a time")
    with given_or_found(url) as location:
        sweep = round_trips(location, bots, seconds, parallel)
    console.print(
        f"protocol: {bots} SDK bots connected over gRPC; round trip runner -> Redis -> gateway "
        f"-> bot -> gateway -> Redis -> runner (targets at one game at a time: p50 <= 1 ms, "
        f"p99 <= 5 ms); CPU a decision of the gateway, the bot hosts and the runners"
    )
    for level, figures in sweep:
        console.print(
            f"{min(level, bots // 2):>3} games at a time: p50 {figures.percentile(50):6.2f} ms, "
            f"p99 {figures.percentile(99):6.2f} ms, {figures.per_second:,.0f} decisions/s "
            f"({figures.decisions:,} decisions); gateway RSS "
            f"{figures.gateway_rss_bytes / 2**20:,.0f} MiB; CPU "
            + " / ".join(f"{us:,.0f}" for us in figures.cpu_us)
            + " us"
        )
