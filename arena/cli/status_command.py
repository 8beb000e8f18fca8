"""`arena status`: renders `arena.services.status` as tables, or as JSON for scripts; exits 1
when an alert's condition holds or Redis cannot be read."""

from __future__ import annotations

import json
import time

import click
from rich.table import Table

from arena.cli.common import REDIS_OPTION, console, friendly_errors
from arena.services.status import ArenaStatus

TIMEOUT_S = 5.0  # a Redis that does not answer is reported, not waited for


@click.command()
@REDIS_OPTION
@click.option("--json", "as_json", is_flag=True, help="One JSON object (shape: README).")
@friendly_errors
def status(redis_url: str | None, as_json: bool) -> None:
    """The whole arena at a glance, and the alerts' conditions evaluated from Redis.

    Exit status 1 when an alert's condition holds or Redis cannot be read."""
    from arena.cli.network import require_redis_url
    from arena.services import status as service
    from arena.store.server import connect

    found = service.arena_status(connect(require_redis_url(redis_url), TIMEOUT_S))
    if as_json:
        click.echo(json.dumps(service.as_json(found), indent=2))
    elif not found.redis.reachable:
        raise click.ClickException(f"Redis unreachable: {found.redis.error}")
    else:
        _render(found)
    if not found.ok:
        raise SystemExit(1)


def _render(found: ArenaStatus) -> None:
    for table in (
        _redis(found), _gateways(found), _workers(found), _queues(found), _events(found),
        _ladders(found), _sprt_tests(found), _alerts(found),
    ):  # fmt: skip
        console.print(table if table.row_count else f"{table.title}: none")
    if found.ok:
        console.print("All evaluated alert conditions are clear.")
    for alert in found.firing:  # one line each, never wrapped, for grep and for mail
        console.print(
            f"[bold red]FIRING[/] {alert.name} ({alert.severity}): {alert.detail}; "
            f"runbook: {alert.runbook}",
            soft_wrap=True,
        )


def _table(title: str, *columns: str) -> Table:
    table = Table(title=title, title_justify="left")
    for column in columns:
        table.add_column(column)
    return table


def _age(seconds: float | None) -> str:
    return "none" if seconds is None else f"{seconds:.1f} s"


def _when(at: float | None, now: float) -> str:
    if at is None:
        return "never"
    stamp = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(at))
    return f"{stamp} ({_age(now - at)} ago)"


def _redis(found: ArenaStatus) -> Table:
    r = found.redis
    table = _table("Redis", "", "")
    table.show_header = False
    rows = {
        "version": r.version,
        "memory used": r.used_memory_human,
        "append-only file": "on" if r.aof_enabled else "off",
        "RDB snapshots": {True: "on", False: "off", None: "unknown (CONFIG refused)"}[
            r.rdb_enabled
        ],
        "last save": _when(r.last_save, found.checked_at),
        "last bgsave": r.last_bgsave_status,
        "changes since": f"{r.changes_since_last_save:,}",
    }
    for name, value in rows.items():
        table.add_row(name, value)
    return table


def _gateways(found: ArenaStatus) -> Table:
    table = _table("Gateways", "gateway", "health", "heartbeat age", "connected bots")
    for g in found.gateways:
        health = "SERVING" if g.serving else "[red]NOT_SERVING (no beat)[/]"
        table.add_row(g.id, health, _age(g.heartbeat_age_s), str(g.connected_bots))
    return table


def _workers(found: ArenaStatus) -> Table:
    table = _table("Workers", "worker", "queues", "state", "playing", "heartbeat age")
    for w in found.workers:
        playing = w.playing or w.current_job or "-"
        table.add_row(w.name, ",".join(w.queues), w.state, playing, _age(w.heartbeat_age_s))
    return table


def _queues(found: ArenaStatus) -> Table:
    table = _table("Queues", "queue", "queued", "started", "deferred", "scheduled", "failed")
    for name, states in found.queues.items():
        table.add_row(name, *(str(count) for count in states.values()))
    return table


def _events(found: ArenaStatus) -> Table:
    table = _table("Running events", "kind", "name", "queued", "started", "scheduled", "deferred")
    for e in found.events:
        table.add_row(e.kind, e.name, *(str(count) for count in e.jobs.values()))
    return table


def _ladders(found: ArenaStatus) -> Table:
    table = _table("Ladders", "ladder", "game", "rules", "bots", "matches", "rated results")
    for ladder in found.ladders:
        table.add_row(
            ladder.name, ladder.game, f"v{ladder.rules_version}", str(ladder.bots),
            str(ladder.matches), str(ladder.rated_results),
        )  # fmt: skip
    return table


def _sprt_tests(found: ArenaStatus) -> Table:
    table = _table("SPRT tests", "test", "state", "pairs", "LLR (bounds)")
    for t in found.sprt_tests:
        llr = f"{t.llr:+.2f} ({t.lower:+.2f}, {t.upper:+.2f})"
        table.add_row(t.name, t.state, str(t.pairs), llr)
    return table


def _alerts(found: ArenaStatus) -> Table:
    table = _table("Alerts", "alert", "severity", "now", "detail")
    for a in found.alerts:
        now = "[bold red]FIRING[/]" if a.firing else ("clear" if a.evaluated else "-")
        table.add_row(a.name, a.severity, now, a.detail)
    return table
