"""Commands for a networked arena: the gateway, bot registration, matches through the gateway."""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import click
from rich.console import Console
from rich.table import Table

from arena.games import get_game
from arena.gateway.server import GatewaySettings, serve
from arena.match.match import play_match
from arena.match.referee import FaultPolicy, GameOutcome
from arena.metrics.server import start_metrics_server
from arena.stats import mean_ci
from arena.store.bots import BotRegistry
from arena.store.server import connect, embedded_redis


def require_redis_url(url: str | None) -> str:
    if not url:
        raise click.ClickException(
            "no Redis server: pass --redis-url or set REDIS_URL "
            "(or run `arena serve --embedded-redis` and use the URL it prints)"
        )
    return url


@contextmanager
def gateway_redis(url: str | None, embedded: bool) -> Iterator[str]:
    if url or not embedded:
        yield require_redis_url(url)
        return
    with embedded_redis() as started:
        yield started


def run_serve(
    console: Console,
    url: str | None,
    embedded: bool,
    host: str,
    port: int,
    admin: str | None,
    metrics_port: int = 0,
) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    admin_token = admin or os.environ.get("ARENA_ADMIN_TOKEN") or secrets.token_urlsafe(24)
    with gateway_redis(url, embedded) as redis_location:
        console.print(f"Redis: {redis_location}")
        if not (admin or os.environ.get("ARENA_ADMIN_TOKEN")):
            console.print(f"Admin token (generated, shown once): {admin_token}")
        if metrics_port:
            metrics = start_metrics_server(connect(redis_location), host, metrics_port)
            console.print(f"Metrics on http://{host}:{metrics.port}/metrics")
        console.print(f"Bots connect to {host}:{port}; Ctrl-C stops the gateway.")
        settings = GatewaySettings(redis_location, host, port, admin_token)
        try:
            asyncio.run(serve(settings))
        except KeyboardInterrupt:
            console.print("Gateway stopped.")


def run_register(console: Console, url: str | None, name: str) -> None:
    info, token = BotRegistry(connect(require_redis_url(url))).register(name)
    console.print(f"Registered bot {info.name} with id {info.bot_id}.")
    console.print(f"Token (shown once, keep it secret): {token}")


def run_list(console: Console, url: str | None) -> None:
    registry = BotRegistry(connect(require_redis_url(url)))
    table = Table(title="Registered bots")
    for column in ("name", "id", "connected"):
        table.add_column(column)
    for bot in registry.all():
        table.add_row(bot.name, bot.bot_id, "yes" if registry.is_online(bot.bot_id) else "no")
    console.print(table)


def run_match(
    console: Console,
    url: str | None,
    players: tuple[str, str],
    games: int,
    seed: int,
    city: str,
    policy: FaultPolicy,
    duplicate: bool,
    game_id: str = "caper",
) -> None:
    if games < 1:
        raise click.ClickException("--games must be at least 1")
    game = get_game(game_id)
    client = connect(require_redis_url(url))
    match_id = "m" + secrets.token_hex(4)
    outcomes = play_match(
        client, game, {"city": city}, players, games, seed, policy, match_id, duplicate
    )
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
    from arena.bench_protocol import round_trips
    from arena.store.server import given_or_found

    if bots < 2 or bots % 2:
        raise ValueError(f"--bots must be an even number of at least 2, got {bots}")
    if not parallel or min(parallel) < 1:
        raise ValueError("--parallel needs one or more positive numbers of games at a time")
    with given_or_found(url) as location:
        sweep = round_trips(location, bots, seconds, parallel)
    console.print(
        f"protocol: {bots} SDK bots connected over gRPC; round trip runner -> Redis -> gateway "
        f"-> bot -> gateway -> Redis -> runner (targets: p50 <= 2 ms, p99 <= 10 ms)"
    )
    for level, figures in sweep:
        console.print(
            f"{min(level, bots // 2):>3} games at a time: p50 {figures.percentile(50):6.2f} ms, "
            f"p99 {figures.percentile(99):6.2f} ms, {figures.per_second:,.0f} decisions/s "
            f"({figures.decisions:,} decisions)"
        )
