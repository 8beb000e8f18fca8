"""`arena tournament start|status --watch`: a tournament's progress until it finishes or stops.

On a terminal, a live progress bar. Piped or logged, where a bar shows nothing until the end,
one plain line per round scheduled and every few seconds meanwhile."""

from __future__ import annotations

import time
from collections.abc import Iterator

import redis
from rich.console import Console, Group
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
from rich.progress import Progress as ProgressBar

from arena.services import event_liveness
from arena.services.events import Progress, progress
from arena.store.tournaments import Status

WATCH_CHECK_S = 3.0  # how often a watcher makes sure the tournament can still go on
PLAIN_LINE_S = 5.0  # without a terminal: a progress line at least this often
POLL_S = 0.25


def line(now: Progress, name: str, elapsed_s: float) -> str:
    """The plain progress line."""
    minutes, seconds = divmod(int(elapsed_s), 60)
    return (
        f"{name}: round {now.rounds} of {now.planned}, {now.done}/{now.scheduled} "
        f"matches recorded, {now.status.value}, {minutes}:{seconds:02d} elapsed"
    )


def watch(console: Console, client: redis.Redis, name: str, timeout_s: float = 3600) -> Status:
    """Show the progress until the tournament finishes or stops (or `timeout_s` passes)."""
    if console.is_terminal:
        return _watch_live(console, client, name, timeout_s)
    return _watch_plain(console, client, name, timeout_s)


def _polled(client: redis.Redis, name: str, timeout_s: float) -> Iterator[Progress]:
    """Its progress every POLL_S until the tournament is over or `timeout_s` passes."""
    end = time.monotonic() + timeout_s
    checked = time.monotonic()
    while time.monotonic() < end:
        if time.monotonic() - checked >= WATCH_CHECK_S:  # as `status` does: no false hope
            event_liveness.settle(client, name)
            checked = time.monotonic()
        now = progress(client, name)
        yield now
        if now.over:
            return
        time.sleep(POLL_S)


def _watch_live(console: Console, client: redis.Redis, name: str, timeout_s: float) -> Status:
    bar = ProgressBar(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    )
    task = bar.add_task(name, total=None)
    with Live(Group(bar), console=console, refresh_per_second=4, transient=True):
        for now in _polled(client, name, timeout_s):
            bar.update(task, completed=now.done, total=max(now.scheduled, 1))
            bar.update(task, description=f"{name}: round {now.rounds} of {now.planned}, matches")
            if now.over:
                return now.status
    return progress(client, name).status


def _watch_plain(console: Console, client: redis.Redis, name: str, timeout_s: float) -> Status:
    started = time.monotonic()
    last: Progress | None = None
    printed_at = started
    for now in _polled(client, name, timeout_s):
        due = time.monotonic() - printed_at >= PLAIN_LINE_S
        if last is None or now.rounds != last.rounds or now.over or due:
            console.print(line(now, name, time.monotonic() - started), highlight=False)
            printed_at, last = time.monotonic(), now
        if now.over:
            return now.status
    return progress(client, name).status
