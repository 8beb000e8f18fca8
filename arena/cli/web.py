"""`arena web`: the read-only web site over the arena's Redis, served by uvicorn."""

from __future__ import annotations

import contextlib

import click

from arena.cli.common import REDIS_OPTION, console, friendly_errors
from arena.listening import LOOPBACK, WEB_PORT


@click.command("web")
@REDIS_OPTION
@click.option("--host", default=LOOPBACK, show_default=True, help="Address to listen on.")
@click.option("--port", default=WEB_PORT, show_default=True, type=click.IntRange(0, 65535))
@friendly_errors
def web(redis_url: str | None, host: str, port: int) -> None:
    """Serve the web site: tournaments, ladders and bots, read-only, until Ctrl-C."""
    from arena.cli.network import require_redis_url
    from arena.store.server import connect
    from arena.web.server import bind, check_redis, serve_forever, url_of

    url = require_redis_url(redis_url)
    client = connect(url)
    check_redis(client, url)
    sock = bind(host, port)
    console.print(f"[bold]Web site[/] {url_of(sock)} (Ctrl-C stops it)")
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn has shut down cleanly by then
        serve_forever(client, sock)
    console.print("Web site stopped.")


@click.command("web")
@click.option("--entrants", default=1024, show_default=True, type=click.IntRange(2, 8192))
@click.option("--rounds", default=10, show_default=True, type=click.IntRange(1, 13))
@click.option("--fetches", "-n", default=5, show_default=True, type=click.IntRange(1, 100))
@friendly_errors
def bench_web(entrants: int, rounds: int, fetches: int) -> None:
    """Load time of a large Swiss's standings page (server time and the full fetch), and of
    the bots page over its history."""
    from arena.bench.web import bots_page, standings_page

    if entrants < 2**rounds:
        raise click.ClickException(f"{rounds} rounds need at least {2**rounds} entrants")
    f = standings_page(entrants, rounds, fetches)
    console.print(
        f"Standings page of a {f.entrants}-entrant Swiss, {f.rounds} rounds "
        f"({f.bytes / 1e6:.1f} MB of HTML): first view, with its Bradley-Terry fit, server "
        f"{f.first_server_ms:.0f} ms, full fetch {f.first_fetch_ms:.0f} ms; then server "
        f"{f.server_ms:.0f} ms, full fetch {f.fetch_ms:.0f} ms (median of {f.fetches}); "
        f"its live JSON {f.live_ms:.1f} ms"
    )
    b = bots_page(entrants, rounds, fetches)
    console.print(
        f"Bots page, {b.registered} bots registered, {b.matches} matches recorded: first view "
        f"server {b.first_server_ms:.1f} ms, then {b.server_ms:.1f} ms (median of {b.fetches})"
    )
