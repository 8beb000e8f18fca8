"""`apply_many`'s engine: batch N+1 is rated in Python while Redis commits batch N.

A batch costs about as much CPU in Python (the maths, the strings) as in Redis (the script):
one after the other, each waits for the other. Here a thread commits a batch while the caller's
thread rates the next one, speculatively: from the standings the batch in flight will leave,
and at the log length it will leave. The commit is one EVAL whose script first checks that the
log has exactly that length and none of the batch's ids is rated, and writes nothing (replying
0) otherwise: a script runs atomically, so no WATCH and no read round trip. The log length
grows with every rated result (this writer's or anyone's), so an equal length means nobody else
rated anything since the batch in flight committed, and the speculation read the real state.

Anything else (another writer went first, the batch in flight failed its own check) falls
back to `apply_batch`, which reads and rates the batch again under WATCH; the next batch's
speculation is then dropped too. Exactly once and the bytes written are those of `apply_batch`;
the tests run every `apply_many` through this path.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass

import redis
from redis.connection import Connection

from arena.ratings.ladder import Outcome, Standing
from arena.store import keys
from arena.store.ladders import LadderDefinition
from arena.store.ratings.batch import (
    BatchApplied,
    StandingCache,
    apply_batch,
    check_ladder_and_players,
    check_sides,
    rate_fresh,
    split_fresh,
)
from arena.store.ratings.records import AnyResult, standing_from_fields


@dataclass(frozen=True, slots=True)
class _Plan:
    """A batch rated ahead: what it assumes (the log length) and what it leaves."""

    applied: BatchApplied
    after: dict[str, Standing]  # every standing the basis held, updated by this batch
    command: list[str | int]

    @property
    def length_after(self) -> int:
        return self.applied.position + len(self.applied.rated)


@contextmanager
def no_cyclic_gc() -> Iterator[None]:
    """Rating a batch allocates many small containers (standings, tuples, strings) and no
    cycles: the cyclic collector would scan the growing heap again and again, a tenth to a
    sixth of the Python CPU. Reference counting still frees everything; the collector is on
    again afterwards, if it was before."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


_InFlight = tuple[_Plan | None, Future[tuple[BatchApplied, StandingCache | None]]]


class PipelinedWriter:
    def __init__(self, client: redis.Redis, ladder: LadderDefinition, cache: StandingCache):
        self.client, self.ladder, self.cache = client, ladder, cache
        self.slug = ladder.ref.slug
        self.checked: set[str] = set()  # players known to be built-in or registered bots

    def run(self, chunks: Sequence[Sequence[AnyResult]]) -> list[BatchApplied]:
        self._prefetch({player for chunk in chunks for r in chunk for player in r.players})
        done: list[BatchApplied] = []
        inflight: _InFlight | None = None
        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ratings")
        with no_cyclic_gc(), pool:
            for chunk in chunks:
                outcomes = check_sides(self.ladder, chunk)
                if inflight is not None and inflight[0] is None:
                    done.append(self._finish(inflight)[0])  # nothing to build on: wait for it
                    inflight = None
                basis = self._basis(inflight[0] if inflight else None)
                plan = self._plan(chunk, outcomes, basis) if basis is not None else None
                if inflight is not None:
                    applied, held = self._finish(inflight)
                    done.append(applied)
                    if not held:
                        plan = None  # it fell back: what it left may not be what we assumed
                inflight = plan, pool.submit(self._commit, chunk, plan, self._send(plan))
            if inflight is not None:
                done.append(self._finish(inflight)[0])
        return done

    def _prefetch(self, players: set[str]) -> None:
        """Read every player's standing and registration before the first commit, as one
        snapshot with the log length: a read made later waits behind the batch Redis is
        committing, and new players in every batch made the rating thread wait for each commit.
        (The snapshot stays valid while the log keeps the length it had: each commit checks.)
        Unregistered players stay unchecked: their batch raises the usual error when it comes."""
        known = self.cache.standings if self.cache.length >= 0 else {}
        wanted = sorted(p for p in players if p not in known)
        unchecked = sorted(p for p in players if p not in self.checked)
        if not wanted and not unchecked:
            return
        read = self.client.pipeline(transaction=True)  # one snapshot: MULTI/EXEC
        read.exists(keys.ladder(self.slug))
        read.llen(keys.ladder_log(self.slug))
        read.hmget(keys.bot_names(), unchecked)
        for player in wanted:
            read.hgetall(keys.ladder_standing(self.slug, player))
        exists, length, bot_ids, *stored = read.execute()
        if not exists:
            return  # the first batch raises the store's own error
        if known and int(length) != self.cache.length:
            self.cache.length = -1  # someone else rated since this writer's cache: read all
            self._prefetch(players)
            return
        self.checked.update(p for p, bot in zip(unchecked, bot_ids, strict=True) if bot)
        if self.cache.length != int(length):
            self.cache.standings = {}
        self.cache.length = int(length)
        for player, raw in zip(wanted, stored, strict=True):
            self.cache.standings[player] = standing_from_fields(raw)  # unrated: initial values

    def _basis(self, ahead: _Plan | None) -> tuple[int, dict[str, Standing]] | None:
        """The log length and standings the next batch is rated from: those the batch in flight
        will leave, else this writer's cache; None if neither is known."""
        if ahead is not None:  # a copy: the batch in flight's own copy becomes the cache
            return ahead.length_after, dict(ahead.after)
        if self.cache.length < 0:
            return None
        return self.cache.length, dict(self.cache.standings)

    def _plan(
        self,
        chunk: Sequence[AnyResult],
        outcomes: dict[str, Outcome],
        basis: tuple[int, dict[str, Standing]],
    ) -> _Plan | None:
        length, standings = basis
        players = sorted({p for r in chunk for p in r.players})
        unchecked = [p for p in players if p not in self.checked]
        missing = [p for p in players if p not in standings]
        seen: list[bytes | None] = [None] * len(chunk)
        # Read only for bots this writer has not met: a read waits behind the batch Redis is
        # committing. Ids rated already are caught by the commit (then the plain path skips them).
        if unchecked or missing:
            read = self.client.pipeline(transaction=False)
            read.exists(keys.ladder(self.slug))
            read.hmget(keys.ladder_applied(self.slug), [r.result_id for r in chunk])
            for player in missing:
                read.hgetall(keys.ladder_standing(self.slug, player))
            if unchecked:
                read.hmget(keys.bot_names(), unchecked)
            exists, seen, *stored = read.execute()
            bot_ids = stored.pop() if unchecked else []
            check_ladder_and_players(self.client, self.ladder, exists, unchecked, bot_ids)
            self.checked.update(unchecked)  # bots are never unregistered
            for player, raw in zip(missing, stored, strict=True):
                if raw:
                    standings[player] = standing_from_fields(raw)
        fresh, skipped = split_fresh(chunk, seen)
        if not fresh:
            return None  # the plain path says so under WATCH
        rated, _, command = rate_fresh(self.ladder, outcomes, fresh, length, standings)
        return _Plan(BatchApplied(rated, length, tuple(skipped)), standings, command)

    def _send(self, plan: _Plan | None) -> Connection | None:
        """Send a plan's EVAL from the rating thread, Redis being idle (the batch before it is
        done): sent from the commit thread, each chunk of the megabyte would wait for the GIL
        the rating thread holds. Only the reply is waited for in the commit thread."""
        if plan is None:
            return None
        connection = self.client.connection_pool.get_connection()
        try:
            connection.send_command(*plan.command)  # type: ignore[no-untyped-call]
        except BaseException:
            connection.disconnect()  # type: ignore[no-untyped-call]
            self.client.connection_pool.release(connection)
            raise
        return connection

    def _commit(
        self, chunk: Sequence[AnyResult], plan: _Plan | None, sent: Connection | None
    ) -> tuple[BatchApplied, StandingCache | None]:
        """(what was rated, None) if the plan held; else (what the plain path rated, its cache)."""
        # One round trip: the script itself checks the log length and the ids (the plan's
        # assumptions) and writes nothing if they no longer hold. No WATCH, no read first.
        if plan is not None and sent is not None:
            try:
                written = sent.read_response()
            except BaseException:
                sent.disconnect()  # type: ignore[no-untyped-call]  # a reply half read
                raise
            finally:
                self.client.connection_pool.release(sent)
            if written == 1:
                return plan.applied, None
        cache = StandingCache()
        return apply_batch(self.client, self.ladder, chunk, cache), cache

    def _finish(self, inflight: _InFlight) -> tuple[BatchApplied, bool]:
        """What the batch in flight rated, and whether its plan held; the cache follows."""
        plan, future = inflight
        applied, fallback = future.result()
        if fallback is not None:
            self.cache.standings, self.cache.length = fallback.standings, fallback.length
            return applied, False
        assert plan is not None  # no fallback cache: the plan was committed
        self.cache.standings, self.cache.length = plan.after, plan.length_after
        return applied, True
