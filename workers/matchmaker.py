"""`arena ladder run`: the matchmaker that keeps a ladder's bots playing rated matches.

Eligible are the ladder's enabled built-in bots and, if the ladder takes remote bots, every
registered bot whose gateway stream is live and every hosted bot (the arena runs its program, so
it plays with no one online). Each bot plays at most one ladder match at a time;
whenever fewer than `concurrency` matches are in flight, idle bots are paired (see
`arena.ratings.matchmaking`), or seated in tables of three on a ladder of the Snitch game (by
Weng-Lin, the only rating tables have), and their matches enqueued as RQ jobs for the worker
pool. With `inline`, this process runs the queued jobs itself (an RQ SimpleWorker in burst mode),
so a ladder can be played on one machine without separate workers.
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
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer

from arena.metrics.recorder import record_job_failure
from arena.ratings.matchmaking import Candidate, choose_pairs, choose_tables, weng_lin_candidate
from arena.store import keys
from arena.store.job_queue import arena_queue
from arena.store.ladders import LadderDefinition, LadderStore
from arena.store.ratings import RatingStore
from arena.store.values import as_text
from arena.tournament.lifecycle import Command, State
from workers.ladder import enqueue_ladder_match, next_match_number

DONE = {JobStatus.FINISHED, JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED}

# Called when a match is enqueued ("queued", no result) and when its job ends (its status).
Listener = Callable[[str, tuple[str, ...], str, Any], None]


@dataclass
class RunSummary:
    enqueued: int = 0
    finished: int = 0
    failed: int = 0
    in_flight: dict[str, tuple[str, ...]] = field(default_factory=dict)


def eligible_players(client: redis.Redis, definition: LadderDefinition) -> list[str]:
    """Enabled built-in bots, plus (if allowed) registered bots that are connected now and
    hosted bots, always available: the arena runs them."""
    players = list(dict.fromkeys(definition.bots))
    if definition.remote:
        names = client.hgetall(keys.bot_names())
        pipe = client.pipeline(transaction=False)
        ordered = sorted((as_text(n), as_text(b)) for n, b in names.items())
        for _, bot_id in ordered:
            pipe.exists(keys.bot_online(bot_id))
            pipe.hmget(keys.bot(bot_id), "games", "hosted", "revoked")
        replies = pipe.execute() if ordered else []
        for (name, _), up, fields in zip(ordered, replies[::2], replies[1::2], strict=True):
            games, hosted, revoked = fields
            declared = [g for g in as_text(games).split(",") if g] if games else []
            available = up or (hosted and not revoked)
            if available and (not declared or definition.ref.game in declared):
                players.append(name)
    return players


class Matchmaker:
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
        self.client, self._concurrency = client, concurrency
        self._ref, self.definition = definition.ref, definition
        self._rng = random.Random(seed)
        self._listener = listener
        self._last: dict[str, tuple[str, ...]] = {}  # each bot's last opponents
        self.summary = RunSummary()

    def pair_once(self, limit: float = math.inf) -> int:
        """Enqueue matches for idle bots, at most `limit`; how many were enqueued."""
        # Re-read the definition: bots may be enabled or disabled while the ladder runs.
        self.definition = LadderStore(self.client).get(self._ref)
        if self.stopped():
            return 0
        busy = {name for pair in self.summary.in_flight.values() for name in pair}
        idle = [p for p in eligible_players(self.client, self.definition) if p not in busy]
        slots = int(min(self._concurrency - len(self.summary.in_flight), limit))
        if slots <= 0 or len(idle) < self.definition.sides:
            return 0
        matches = self._choose(idle, slots)
        for players in matches:
            number = next_match_number(self.client, self.definition)
            job_id = enqueue_ladder_match(self.client, self.definition, number, players)
            self.summary.in_flight[job_id] = players
            self.summary.enqueued += 1
            for name in players:
                self._last[name] = tuple(p for p in players if p != name)
            self._notify(job_id, players, "queued", None)
        return len(matches)

    def stopped(self) -> bool:
        """Whether the ladder's organiser has stopped it: nothing more is paired."""
        return LadderStore(self.client).state(self._ref) is State.STOPPED

    def _choose(self, idle: list[str], slots: int) -> list[tuple[str, ...]]:
        standings = RatingStore(self.client).standings(self.definition, idle)
        if self.definition.tables:
            candidates = [
                weng_lin_candidate(n, s.mu, s.sigma, s.games) for n, s in standings.items()
            ]
            size = self.definition.sides
            return choose_tables(candidates, size, slots, self._rng, self._last)
        candidates = [Candidate(n, s.rating, s.rd, s.games) for n, s in standings.items()]
        last = {name: opponents[0] for name, opponents in self._last.items()}
        return list(choose_pairs(candidates, slots, self._rng, last))

    def reap(self) -> int:
        """Forget the matches whose jobs have ended; how many ended."""
        ended = 0
        for job_id, players in list(self.summary.in_flight.items()):
            try:
                job = Job.fetch(job_id, connection=self.client, serializer=JSONSerializer)
                status = job.get_status()
            except NoSuchJobError:
                job, status = None, JobStatus.FAILED  # expired or deleted: count it as lost
            if status not in DONE:
                continue
            del self.summary.in_flight[job_id]
            ended += 1
            if status is JobStatus.FINISHED:
                self.summary.finished += 1
            else:
                self.summary.failed += 1
            result = job.return_value() if job is not None else None
            self._notify(job_id, players, status.value, result)
        return ended

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
    """Keep the ladder busy until `max_matches` have been played (or, with `once`, one round of
    pairings has, or the ladder is stopped), waiting for the matches in flight before returning.
    A stopped ladder is refused (`LifecycleError`)."""
    LadderStore(matchmaker.client).transition(matchmaker.definition.ref, Command.RUN)
    summary = matchmaker.summary
    paired_once = False
    while True:
        matchmaker.reap()
        budget = math.inf if max_matches is None else max_matches - summary.enqueued
        stopping = should_stop() or budget <= 0 or (once and paired_once) or matchmaker.stopped()
        if not stopping:
            matchmaker.pair_once(budget)
            paired_once = True
        if (stopping or once) and not summary.in_flight:
            return summary
        if inline and summary.in_flight:
            work_inline(matchmaker.client)
        else:
            time.sleep(poll_s)
