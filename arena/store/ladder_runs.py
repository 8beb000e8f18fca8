"""How the worker pool keeps a ladder playing, in Redis: its matches in flight (a bot named in
one is busy), each bot's last opponents, and how it is filled (its hash's `concurrency` and
`budget`, written with its state by `LadderStore.transition`).

A fill is one WATCH transaction over the ladder's hash, its in-flight entries and its match
counter: it reads them, lets the caller choose the matches, and writes the entries, their RQ jobs
(enqueued on the same pipeline), the counter, the last opponents and the budget at once. Of two
fills racing on the same reading only one is written; the other reads again and sees the first's
matches in flight, so concurrency is never exceeded and no bot is seated twice. An entry and its
job are written together, so an entry whose job RQ no longer has names a lost match.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import redis
from redis.client import Pipeline

from arena.store import keys
from arena.store.values import as_text
from arena.tournament.lifecycle import State

DEFAULT_CONCURRENCY = 2
FILL_ATTEMPTS = 20  # WATCH retries before a fill gives way (a later fill does the work)


@dataclass(frozen=True)
class InFlight:
    job_id: str
    number: int
    players: tuple[str, ...]


@dataclass(frozen=True)
class FillView:
    """What a fill reads inside its transaction."""

    state: State
    concurrency: int
    budget: int | None  # matches still to queue; None: no end
    in_flight: tuple[InFlight, ...]
    last_opponents: dict[str, tuple[str, ...]]
    sequence: int  # the number of the ladder's latest match

    @property
    def busy(self) -> set[str]:
        return {name for match in self.in_flight for name in match.players}

    def slots(self, concurrency: int | None = None) -> int:
        """How many matches may be queued now (at `concurrency` if given, else the stored)."""
        free = (concurrency or self.concurrency) - len(self.in_flight)
        return int(max(0, min(free, math.inf if self.budget is None else self.budget)))


# Choose the matches to queue from what the fill read (none: nothing to do).
Choose = Callable[[FillView], Sequence[tuple[str, ...]]]
# Queue match `number` between `players` on the transaction's pipeline; its RQ job id.
Enqueue = Callable[[Pipeline, int, tuple[str, ...]], str]


def fill_fields(concurrency: int, budget: int | None) -> dict[str, str | int]:
    """The ladder hash's fill settings, as a transition writes them."""
    return {"concurrency": concurrency, "budget": "" if budget is None else budget}


class LadderRuns:
    def __init__(self, client: redis.Redis) -> None:
        self._redis = client

    def in_flight(self, slug: str) -> list[InFlight]:
        return _entries(self._redis.hgetall(keys.ladder_in_flight(slug)))

    def load(self, slug: str) -> tuple[int, int]:
        """(matches in flight, the most the pool keeps in flight)."""
        with self._redis.pipeline(transaction=False) as pipe:
            pipe.hlen(keys.ladder_in_flight(slug))
            pipe.hget(keys.ladder(slug), "concurrency")
            count, concurrency = pipe.execute()
        return int(count), int(concurrency or DEFAULT_CONCURRENCY)

    def forget(self, slug: str, job_ids: Sequence[str]) -> int:
        """The matches of `job_ids` are over: their bots are free."""
        return int(self._redis.hdel(keys.ladder_in_flight(slug), *job_ids)) if job_ids else 0

    def sequence(self, slug: str) -> int:
        return int(self._redis.get(keys.ladder_sequence(slug)) or 0)

    def fill(
        self, slug: str, choose: Choose, enqueue: Enqueue, close: bool = False
    ) -> list[InFlight]:
        """Queue the matches `choose` picks, in one transaction (read again if another change
        lands first); `close` sets the budget to 0 in it (nothing more after these)."""
        watched = (keys.ladder(slug), keys.ladder_in_flight(slug), keys.ladder_sequence(slug))
        with self._redis.pipeline() as pipe:
            for _ in range(FILL_ATTEMPTS):
                try:
                    pipe.watch(*watched)  # type: ignore[no-untyped-call]
                    view = self._view(pipe, slug)
                    matches = choose(view)
                    if not matches and not close:
                        pipe.unwatch()
                        return []
                    pipe.multi()
                    seated = self._write(pipe, slug, view, matches, enqueue, close)
                    pipe.execute()
                    return seated
                except redis.WatchError:
                    continue
        return []

    def _view(self, pipe: Pipeline, slug: str) -> FillView:
        state, concurrency, budget = pipe.hmget(keys.ladder(slug), "state", "concurrency", "budget")
        last = pipe.hgetall(keys.ladder_last_opponents(slug))
        return FillView(
            State(as_text(state)) if state else State.CREATED,
            int(concurrency or DEFAULT_CONCURRENCY),
            int(budget) if budget else None,
            tuple(_entries(pipe.hgetall(keys.ladder_in_flight(slug)))),
            {as_text(p): tuple(json.loads(o)) for p, o in last.items()},
            int(pipe.get(keys.ladder_sequence(slug)) or 0),
        )

    @staticmethod
    def _write(
        pipe: Pipeline,
        slug: str,
        view: FillView,
        matches: Sequence[tuple[str, ...]],
        enqueue: Enqueue,
        close: bool,
    ) -> list[InFlight]:
        seated = []
        for number, players in enumerate(matches, start=view.sequence + 1):
            job_id = enqueue(pipe, number, players)
            entry = json.dumps({"number": number, "players": list(players)})
            pipe.hset(keys.ladder_in_flight(slug), job_id, entry)
            for name in players:
                others = json.dumps([p for p in players if p != name])
                pipe.hset(keys.ladder_last_opponents(slug), name, others)
            seated.append(InFlight(job_id, number, players))
        if matches:
            pipe.set(keys.ladder_sequence(slug), view.sequence + len(matches))
        if close or view.budget is not None:
            left = 0 if close or view.budget is None else view.budget - len(matches)
            pipe.hset(keys.ladder(slug), "budget", left)
        return seated


def _entries(stored: Mapping[bytes | str, bytes | str]) -> list[InFlight]:
    entries = []
    for job_id, value in stored.items():
        match = json.loads(value)
        entries.append(InFlight(as_text(job_id), int(match["number"]), tuple(match["players"])))
    return sorted(entries, key=lambda e: e.number)
