"""`arena web`: the web site over the arena's Redis, served by uvicorn."""

from __future__ import annotations

import contextlib

import click

from arena.cli.common import REDIS_OPTION, console, friendly_errors
from arena.listening import LOOPBACK, WEB_PORT


@click.command("web")
@REDIS_OPTION
@click.option("--host", default=LOOPBACK, show_default=True, help="Address to listen on.")
@click.option("--port", default=WEB_PORT, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--admin-token",
    envvar="ARENA_ADMIN_TOKEN",
    help="The token that signs in as the organiser (the gateway's); none: nobody can.",
)
@click.option("--behind-tls", is_flag=True, help="A proxy in front ends TLS: mark cookies Secure.")
@click.option(
    "--open-registration", is_flag=True, help="Let anyone register a bot and get its token."
)
@friendly_errors
def web(
    redis_url: str | None,
    host: str,
    port: int,
    admin_token: str | None,
    behind_tls: bool,
    open_registration: bool,
) -> None:
    """Serve the web site until Ctrl-C: tournaments, ladders, SPRT tests and bots; signed in with
    the admin token the organiser runs them, with a bot's token its owner manages that bot."""
    from arena.cli.network import require_redis_url
    from arena.store.server import connect
    from arena.web.server import WebSettings, bind, check_redis, serve_forever, url_of

    url = require_redis_url(redis_url)
    client = connect(url)
    check_redis(client, url)
    sock = bind(host, port)
    console.print(f"[bold]Web site[/] {url_of(sock)} (Ctrl-C stops it)")
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn has shut down cleanly by then
        settings = WebSettings(admin_token or None, behind_tls, open_registration)
        serve_forever(client, sock, settings)
    console.print("Web site stopped.")


@click.command("web")
@click.option("--entrants", default=1024, show_default=True, type=click.IntRange(2, 8192))
@click.option("--rounds", default=10, show_default=True, type=click.IntRange(1, 13))
@click.option("--fetches", "-n", default=5, show_default=True, type=click.IntRange(1, 100))
@click.option("--workers", default=100, show_default=True, type=click.IntRange(1, 1000))
@friendly_errors
def bench_web(entrants: int, rounds: int, fetches: int, workers: int) -> None:
    """Load time of a large Swiss's standings page (server time and the full fetch), of the
    bots page over its history, of creating and starting a Swiss of as many registered bots
    from the site's form, of the other pages that grow with the field, and of the workers page
    with a busy fleet."""
    from arena.bench.web import bots_page, standings_page, workers_page

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
    _event_figures(entrants, rounds, fetches)
    w = workers_page(workers, fetches)
    console.print(
        f"Workers page, {w.workers} workers each playing a match: first view server "
        f"{w.first_server_ms:.1f} ms, then {w.server_ms:.1f} ms, full fetch {w.fetch_ms:.1f} ms "
        f"(median of {w.fetches})"
    )


def _event_figures(entrants: int, rounds: int, fetches: int) -> None:
    from arena.bench.web_forms import busiest_pages, event_form

    e = event_form(entrants, fetches)
    console.print(
        f"New tournament form, signed in as the organiser, a Swiss of {e.entrants} registered "
        f"bots (median of {e.events} events): create {e.create_ms:.0f} ms (server "
        f"{e.create_server_ms:.0f} ms), start {e.start_ms:.0f} ms (server "
        f"{e.start_server_ms:.0f} ms), then its page {e.page_ms:.0f} ms"
    )
    for p in busiest_pages(entrants, rounds, fetches):
        console.print(
            f"{p.path} over it, every entrant a registered bot ({p.bytes / 1e3:.0f} kB): first "
            f"view server {p.first_server_ms:.1f} ms, then {p.server_ms:.1f} ms, full fetch "
            f"{p.fetch_ms:.1f} ms (median of {fetches})"
        )
