"""The workers page (fishtest's machines page): the live RQ workers, what each is playing and
how long ago it beat, the queues' depths, and the failed jobs and voided games counted so far.

Everything comes from `arena.services.status.machines_status`, the read `arena status` is built
on; the view model below only turns it into tables.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from arena.metrics.collector import QUEUE_STATES
from arena.services.status import MachinesStatus, WorkerState, machines_status
from arena.web import links
from arena.web.grid import Cell, Grid, headers, num
from arena.web.render import page, store_client

WORKER_COLUMNS = ("worker", "state", "playing", "heartbeat", "queues", "job")
QUEUE_COLUMNS = ("queue", *QUEUE_STATES, "failed attempts")
EVENT_PAGES = {"tournament": links.tournament_url, "sprt": links.sprt_url}


def worker_grid(status: MachinesStatus) -> Grid:
    rows = tuple(_worker_row(worker) for worker in status.workers)
    caption = f"{len(rows)} live worker{'' if len(rows) == 1 else 's'}"
    numeric = ("heartbeat",)
    return Grid(headers(WORKER_COLUMNS, numeric), rows, caption, dom_id="workers",
                wide=("queues", "job"))  # fmt: skip


def _worker_row(worker: WorkerState) -> tuple[Cell, ...]:
    age = worker.heartbeat_age_s
    return (
        Cell(worker.name, css="ident"),
        Cell(worker.state),
        _playing(worker.playing),
        num(f"{age:.1f} s ago" if age is not None else "never"),
        Cell(", ".join(worker.queues)),
        Cell(worker.current_job or "", css="muted ident"),
    )


def _playing(playing: str | None) -> Cell:
    """The event a worker plays, linked to its page; a dash for an idle worker or other job."""
    if playing is None:
        return Cell("—", css="muted")
    kind, _, name = playing.partition(" ")
    page_url = EVENT_PAGES.get(kind)
    return Cell(playing, url=page_url(name) if page_url else None)


def queue_grid(status: MachinesStatus) -> Grid:
    names = sorted(set(status.queues) | set(status.job_failures))
    rows = tuple(
        (
            Cell(name),
            *(num(str(status.queues.get(name, {}).get(state, 0))) for state in QUEUE_STATES),
            num(str(status.job_failures.get(name, 0))),
        )
        for name in names
    )
    numeric = QUEUE_COLUMNS[1:]
    return Grid(headers(QUEUE_COLUMNS, numeric), rows, dom_id="queues",
                wide=("deferred", "scheduled", "failed attempts"))  # fmt: skip


def voided_grid(status: MachinesStatus) -> Grid:
    rows = tuple((Cell(game), num(str(count))) for game, count in status.voided_games.items())
    caption = "games cut short by a failure: never scored, replayed by the retried job"
    return Grid(headers(("game", "voided games"), ("voided games",)), rows, caption,
                dom_id="voided")  # fmt: skip


def workers_page(request: Request) -> Response:
    status = machines_status(store_client(request))
    context = {
        "workers": worker_grid(status),
        "queues": queue_grid(status),
        "voided": voided_grid(status),
    }
    return page(request, "workers.html", context)


def routes() -> list[Route]:
    return [Route(links.workers_url(), workers_page, methods=["GET"])]
