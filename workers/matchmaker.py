"""`arena ladder run`: start a ladder on the worker pool and follow its matches as they are
played, or (`inline`) play them in this process (an RQ SimpleWorker in burst mode), so a ladder
can be played on one machine without separate workers.

The pairing itself is the pool's (`arena.services.ladder_runs.fill`): this process fills the
ladder once as it starts and at each check, and each match's job fills it again as it ends.
`max_matches` is stored with the ladder as its budget, so no filler queues more than that.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import redis
from rq import SimpleWorker
from rq.job import Job
from rq.serializers import JSONSerializer

from arena.metrics.recorder import record_job_failure
from arena.services import ladder_runs, ladders
from arena.services.ladder_runs import DONE, ladder_job_id
from arena.store.job_queue import arena_queue
from arena.store.ladder_runs import LadderRuns
from arena.store.ladders import LadderDefinition, LadderStore
from arena.tournament.lifecycle import State

# Called when a match is queued ("queued", no result) and when its job ends (its status).
Listener = Callable[[str, tuple[str, ...], str, Any], None]


@dataclass
class RunSummary:
    enqueued: int = 0
    finished: int = 0
    failed: int = 0
    in_flight: dict[str, tuple[str, ...]] = field(default_factory=dict)


class Matchmaker:
    """Follows the ladder's matches numbered after it was made, whoever queued them."""

    def __init__(
        self,
        client: redis.Redis,
        definition: LadderDefinition,
        concurrency: int = 2,
        seed: int | None = None,
        listener: Listener | None = None,
    ) -> None:
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        self.client, self.concurrency = client, concurrency
        self._ref, self.definition = definition.ref, definition
        self._rng = random.Random(seed)
        self._listener = listener
        self._next = LadderRuns(client).sequence(definition.ref.slug) + 1
        self._numbers: dict[str, int] = {}  # job id -> match number, of the matches in flight
        self.summary = RunSummary()

    def pair_once(self, limit: float = math.inf, close: bool = False) -> int:
        """Fill the ladder with matches for idle bots, at most `limit` (`close`: none after
        these); how many were queued."""
        # Re-read the definition: bots may be enabled or disabled while the ladder runs.
        self.definition = LadderStore(self.client).get(self._ref)
        if self.stopped():
            return 0
        seated = ladder_runs.fill(self.client, self._ref, self.concurrency, limit, close, self._rng)
        self.follow(reap=False)
        return len(seated)

    def stopped(self) -> bool:
        """Whether the ladder's organiser has stopped it: nothing more is paired."""
        return LadderStore(self.client).state(self._ref) is State.STOPPED

    def reap(self) -> int:
        """Note the matches whose jobs have ended; how many ended."""
        return self.follow(reap=True)

    def follow(self, reap: bool, discover: bool = True) -> int:
        """In the order numbered: each match queued since the last look (`discover`), and with
        `reap` each in flight whose job ended (finished, failed, or gone: lost). How many ended."""
        slug = self._ref.slug
        latest = LadderRuns(self.client).sequence(slug) if discover else self._next - 1
        numbers = sorted({*self._numbers.values(), *range(self._next, latest + 1)})
        self._next = max(self._next, latest + 1)
        ids = [ladder_job_id(slug, n) for n in numbers]
        jobs = Job.fetch_many(ids, connection=self.client, serializer=JSONSerializer)
        ended = 0
        for job_id, number, job in zip(ids, numbers, jobs, strict=True):
            if job_id not in self._numbers:
                players = tuple(job.args[2:]) if job is not None else ()
                self._numbers[job_id] = number
                self.summary.in_flight[job_id] = players
                self.summary.enqueued += 1
                self._notify(job_id, players, "queued", None)
            status = job.get_status(refresh=False) if job is not None else None
            if reap and (status is None or status in DONE):
                ended += 1
                self._ended(job_id, job, status)
        return ended

    def _ended(self, job_id: str, job: Job | None, status: Any) -> None:
        players = self.summary.in_flight.pop(job_id)
        del self._numbers[job_id]
        finished = status is not None and status.value == "finished"
        if finished:
            self.summary.finished += 1
        else:
            self.summary.failed += 1  # failed, stopped, cancelled, or gone: lost
        result = job.return_value() if job is not None and finished else None
        self._notify(job_id, players, status.value if status is not None else "failed", result)

    def _notify(self, job_id: str, players: tuple[str, ...], status: str, result: Any) -> None:
        if self._listener is not None:
            self._listener(job_id, players, status, result)


def work_inline(client: redis.Redis) -> None:
    """Run every queued arena job in this process, then return (RQ's burst mode)."""
    worker = SimpleWorker(
        [arena_queue(client)],
        connection=client,
        serializer=JSONSerializer,
        exception_handlers=[record_job_failure],
    )
    worker.work(burst=True, with_scheduler=False, logging_level="WARNING")


def run_ladder(
    matchmaker: Matchmaker,
    max_matches: int | None = None,
    once: bool = False,
    inline: bool = False,
    poll_s: float = 1.0,
    should_stop: Callable[[], bool] = lambda: False,
) -> RunSummary:
    """Start the ladder on the pool (`max_matches`: that many more at most) and follow it until
    `max_matches` have been played (or, with `once`, one round of pairings has, or the ladder
    is stopped), waiting for the matches in flight before returning. Without `max_matches` the
    ladder keeps running on the workers after this returns. A stopped ladder is refused
    (`LifecycleError`)."""
    client, ref = matchmaker.client, matchmaker.definition.ref
    ladders.begin_run(client, ref, matchmaker.concurrency, max_matches)
    summary = matchmaker.summary
    matchmaker.pair_once(close=once)
    while True:
        spent = max_matches is not None and summary.enqueued >= max_matches
        stopping = should_stop() or spent or once or matchmaker.stopped()
        matchmaker.follow(reap=True, discover=not stopping)
        if stopping and not summary.in_flight:
            return summary
        if not stopping:
            budget = math.inf if max_matches is None else max_matches - summary.enqueued
            matchmaker.pair_once(budget)
        # Inline, this process is the pool: it plays what is queued, the run's matches and any
        # queued before it (a started ladder's), whose ends fill the ladder again.
        if inline and (summary.in_flight or LadderRuns(client).in_flight(ref.slug)):
            work_inline(client)
        else:
            time.sleep(poll_s)
