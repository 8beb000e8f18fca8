"""SPRT tests on the worker pool: queueing, playing and checking batches of duplicate pairs,
each played by an RQ job (`workers.sprt`, which calls `play_batch`).

A test keeps `parallel` batches queued or in play: batch b, once played, queues batch
b + parallel, until the test is decided, stopped or capped. Every step may run twice (a job is
retried after its worker dies, or queued twice): a pair is counted once by its id
(`SprtStore.apply_pair`), a retried batch skips the pairs already counted, and a batch is queued
once (`mark_queued`) unless its job is gone with pairs still unplayed.
"""

from __future__ import annotations

import logging
import time
from collections import Counter

import redis
from rq import Callback
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer

from arena.games import get_game
from arena.play.match import play_match
from arena.referee.referee import FaultPolicy, GameOutcome, Termination
from arena.store import keys
from arena.store.job_queue import arena_queue, retry_policy, seated_timeout_s
from arena.store.sprt import SprtDefinition, SprtStore, pair_id

log = logging.getLogger("arena.workers")

JOB_FUNCTION = "workers.sprt.play_sprt_batch"
ENDED_UNPLAYED = (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED)
CHECK_EVERY_S = 3
MISSING_GRACE_S = 5  # a batch is marked queued a moment before its job is


class BotAwayError(RuntimeError):
    """A game of the pair was lost by a bot away longer than the grace period: that says
    nothing of its strength, so the pair is not counted (counting it would let an absence
    accept H0); the batch fails, is retried, and the test stops after the last attempt."""


def batch_job_id(name: str, batch: int) -> str:
    return f"sprt_{name}_b{batch}"


def pair_seed(definition: SprtDefinition, number: int) -> int:
    """Each pair its own deal, fixed by the test's seed and the pair's number."""
    return definition.seed * 1_000_003 + number


def job_timeout_s(definition: SprtDefinition) -> int:
    """The longest a batch may take if both bots use all of their time, with a margin."""
    games = definition.batch_pairs * 2  # a pair is one deal played twice, seats swapped
    return seated_timeout_s(games, 2, definition.move_ms, definition.bank_ms, definition.grace_ms)


def start(client: redis.Redis, definition: SprtDefinition) -> list[int]:
    """Store a new test and queue its first batches; returns their numbers."""
    SprtStore(client).create(definition)
    return [b for b in range(definition.parallel) if ensure_queued(client, definition, b)]


def ensure_queued(client: redis.Redis, definition: SprtDefinition, batch: int) -> bool:
    """Queue batch `batch` unless the test is over, the batch is past the cap, or it was queued
    before and its job is still there (or its pairs are all counted). True if queued now."""
    store, name = SprtStore(client), definition.name
    pairs = definition.batch_pairs_of(batch)
    if not pairs or not store.is_running(name):
        return False
    if not store.mark_queued(name, batch):  # queued before: again only if its job was lost
        job_id = batch_job_id(name, batch)
        if Job.exists(job_id, connection=client):
            return False
        if all(store.is_applied(name, n) for n in pairs):
            return False
        log.warning("SPRT %s: batch %d had no job left: queued again", name, batch)
    arena_queue(client).enqueue(
        JOB_FUNCTION,
        args=(name, batch),
        job_id=batch_job_id(name, batch),
        job_timeout=job_timeout_s(definition),
        retry=retry_policy(),
        on_failure=Callback("workers.sprt.batch_failed"),
        result_ttl=3600,
        failure_ttl=7 * 24 * 3600,
        description=f"SPRT {name}: batch {batch}, {definition.test} vs {definition.base}",
    )
    return True


def play_batch(client: redis.Redis, name: str, batch: int) -> dict[str, object]:
    store = SprtStore(client)
    definition = store.get(name)
    counted = []
    for number in definition.batch_pairs_of(batch):
        if not store.is_running(name):
            break  # decided, capped or stopped: the rest would not count
        if store.is_applied(name, number):
            continue  # counted by an earlier attempt of this batch
        halves = play_pair(client, definition, number)
        if store.apply_pair(name, number, halves) is not None:
            counted.append(number)
    queued = ensure_queued(client, definition, batch + definition.parallel)
    if not store.is_running(name):
        cancel_queued(client, name)  # over: batches still waiting would only be skipped
    return {"batch": batch, "counted": counted, "queued_next": queued}


def play_pair(client: redis.Redis, definition: SprtDefinition, number: int) -> int:
    """Play pair `number` (one deal, seats swapped); `test`'s score in half points, 0..4."""
    policy = FaultPolicy(
        definition.move_ms, definition.bank_ms, definition.max_strikes, definition.grace_ms
    )
    players = (definition.test, definition.base)
    outcomes = play_match(
        client,
        get_game(definition.game),
        definition.config,
        players,
        2,
        pair_seed(definition, number),
        policy,
        pair_id(definition.name, number),
        duplicate=True,
    )
    for outcome in outcomes:
        if outcome.termination is Termination.DISCONNECT:  # timeouts do count: speed is play
            away = outcome.record.players[1 - (outcome.result.winner or 0)]
            raise BotAwayError(
                f"{away} was away longer than the grace period ({definition.grace_ms} ms) "
                f"in pair {number}: not counted"
            )
    return sum(game_halves(outcome, definition.test) for outcome in outcomes)


def game_halves(outcome: GameOutcome, player: str) -> int:
    """`player`'s score in one game, in half points: a win 2, a draw 1, a loss 0."""
    winner = outcome.result.winner
    if winner is None:
        return 1
    return 2 if outcome.record.players[winner] == player else 0


def resume(client: redis.Redis, name: str) -> int:
    """Run a stopped test again: every batch queued before with pairs left to play is queued
    again (its counted pairs stand), and each goes on queueing the next. Any other state is
    refused, naming it. How many batches were queued."""
    store = SprtStore(client)
    store.resume(name)
    definition, queued = store.get(name), 0
    for batch in sorted(int(b) for b in client.hkeys(keys.sprt_batches(name))):
        if all(store.is_applied(name, n) for n in definition.batch_pairs_of(batch)):
            continue
        job = Job.fetch_many([batch_job_id(name, batch)], client, serializer=JSONSerializer)[0]
        if job is not None and job.get_status(refresh=False) in (
            *ENDED_UNPLAYED,
            JobStatus.FINISHED,
        ):
            job.delete()  # ended while the test was stopped: its pairs are still to play
        queued += ensure_queued(client, definition, batch)
    return queued


def cancel_queued(client: redis.Redis, name: str) -> int:
    """Take the test's batches still waiting in the queue out of it (a test that is over);
    how many. Batches in play finish their pair and stop."""
    queue, cancelled = arena_queue(client), 0
    batches = [int(b) for b in client.hkeys(keys.sprt_batches(name))]
    ids = [batch_job_id(name, b) for b in batches]
    for job in Job.fetch_many(ids, connection=client, serializer=JSONSerializer):
        if job is not None and job.get_status(refresh=False) is JobStatus.QUEUED:
            queue.remove(job)
            job.delete()
            cancelled += 1
    return cancelled


def check_running(client: redis.Redis) -> None:
    """`check` every running test, at most once per CHECK_EVERY_S across the pool (run by the
    workers' maintenance, so a lost batch job is found with nobody looking)."""
    if not client.set(keys.sprt_check_lock(), 1, nx=True, ex=CHECK_EVERY_S):
        return
    store = SprtStore(client)
    for name in store.names():
        if store.is_running(name):
            check(client, name)


def settle(client: redis.Redis, name: str) -> Counter[str]:
    """`check`, after dealing with abandoned jobs as a worker would (there may be none left):
    what `arena sprt status` runs first, so what it shows is true."""
    arena_queue(client).started_job_registry.cleanup()  # a dead worker's batch: retried now
    return check(client, name)


def check(client: redis.Redis, name: str) -> Counter[str]:
    """Make a running test's state true: a batch with pairs to play whose job has been gone for
    MISSING_GRACE_S is queued again; one whose job ended unplayed (cancelled or stopped by an
    operator, failed for good) stops the test, saying why. Returns how many unfinished batches'
    jobs are in each RQ state ("missing": gone for less than the grace)."""
    store = SprtStore(client)
    if not store.is_running(name):
        return Counter()
    definition, states = store.get(name), Counter[str]()
    queued_at = {int(b): float(t) for b, t in client.hgetall(keys.sprt_batches(name)).items()}
    for batch in sorted(queued_at):
        if all(store.is_applied(name, n) for n in definition.batch_pairs_of(batch)):
            continue
        job = Job.fetch_many([batch_job_id(name, batch)], client, serializer=JSONSerializer)[0]
        if job is None:
            # marked a moment before it is queued: a job missing for less may be on its way
            if time.time() - queued_at[batch] < MISSING_GRACE_S:
                states["missing"] += 1
            elif ensure_queued(client, definition, batch):
                states["queued again"] += 1
            continue
        status = job.get_status(refresh=False)
        if status in ENDED_UNPLAYED:
            store.stop(name, f"batch {batch} ended unplayed: its job was {status.value}")
            cancel_queued(client, name)
            return states
        states[status.value] += 1
    return states
