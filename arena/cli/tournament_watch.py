"""`arena tournament start|status --watch`: a tournament's progress until it finishes or stops.

On a terminal, a live progress bar. Piped or logged, where a bar shows nothing until the end,
one plain line per round scheduled and every few seconds meanwhile."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import redis
from rich.console import Console, Group
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from arena.services.events import progress
from arena.store.table_rounds import TableStore
from arena.store.tournaments import Status, TournamentStore
from workers import liveness

WATCH_CHECK_S = 3.0  # how often a watcher makes sure the tournament can still go on
PLAIN_LINE_S = 5.0  # without a terminal: a progress line at least this often
POLL_S = 0.25


@dataclass(frozen=True, slots=True)
class Snapshot:
    done: int
    scheduled: int
    rounds: int
    planned: int
    status: Status

    @property
    def over(self) -> bool:
        return self.status in (Status.FINISHED, Status.STOPPED)

    def line(self, name: str, elapsed_s: float) -> str:
        """The plain progress line."""
        minutes, seconds = divmod(int(elapsed_s), 60)
        return (
            f"{name}: round {self.rounds} of {self.planned}, {self.done}/{self.scheduled} "
            f"matches recorded, {self.status.value}, {minutes}:{seconds:02d} elapsed"
        )


def snapshot(client: redis.Redis, name: str) -> Snapshot:
    done, scheduled, planned, status = progress(client, name)
    return Snapshot(done, scheduled, rounds_scheduled(client, name), planned, status)


def watch(console: Console, client: redis.Redis, name: str, timeout_s: float = 3600) -> Status:
    """Show the progress until the tournament finishes or stops (or `timeout_s` passes)."""
    if console.is_terminal:
        return _watch_live(console, client, name, timeout_s)
    return _watch_plain(console, client, name, timeout_s)


def _polled(client: redis.Redis, name: str, timeout_s: float) -> Iterator[Snapshot]:
    """Snapshots every POLL_S until the tournament is over or `timeout_s` passes."""
    end = time.monotonic() + timeout_s
    checked = time.monotonic()
    while time.monotonic() < end:
        if time.monotonic() - checked >= WATCH_CHECK_S:  # as `status` does: no false hope
            liveness.settle(client, name)
            checked = time.monotonic()
        now = snapshot(client, name)
        yield now
        if now.over:
            return
        time.sleep(POLL_S)


def _watch_live(console: Console, client: redis.Redis, name: str, timeout_s: float) -> Status:
    bar = Progress(
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
    return progress(client, name)[3]


def _watch_plain(console: Console, client: redis.Redis, name: str, timeout_s: float) -> Status:
    started = time.monotonic()
    last: Snapshot | None = None
    printed_at = started
    for now in _polled(client, name, timeout_s):
        due = time.monotonic() - printed_at >= PLAIN_LINE_S
        if last is None or now.rounds != last.rounds or now.over or due:
            console.print(now.line(name, time.monotonic() - started), highlight=False)
            printed_at, last = time.monotonic(), now
        if now.over:
            return now.status
    return progress(client, name)[3]


def rounds_scheduled(client: redis.Redis, name: str) -> int:
    if TournamentStore(client).get(name).table_size:
        return len(TableStore(client).rounds(name))
    return len(TournamentStore(client).rounds(name))
