"""Liveness: a tournament that says `running` has every unplayed match queued or in play.

RQ can end a match's job where our job code never runs: a worker killed on the last attempt
(RQ finds the job abandoned and moves it to the failed registry), a job stopped, cancelled or
deleted by an operator, a Redis that lost it. `interrupted` is called where RQ lets us hook in
(a killed work-horse, an abandoned job); `check` reconciles whatever slipped past, run by one
worker every few seconds and by `arena tournament status`.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Sequence

import redis
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer

from arena.metrics.recorder import record_voided
from arena.services.event_runs import advance, stop
from arena.store import keys
from arena.store.encounters import encounters_of
from arena.store.job_queue import RETRIES, arena_queue, enqueue_round, match_job_id, slice_start
from arena.store.job_slices import JobSlices
from arena.store.results import match_id
from arena.store.tournaments import Status, TournamentStore
from arena.store.values import as_text
from arena.tournament.definition import TournamentDefinition
from arena.tournament.encounter import boards

log = logging.getLogger("arena.workers")

TOURNAMENT_JOB = "workers.jobs.play_tournament_match"
ENDED_UNPLAYED = (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED)
CHECK_EVERY_S = 3
# A round is stored a moment before its jobs are queued: a job missing for less is not lost.
MISSING_GRACE_S = 5
SETTLE_POLL_S = 0.5  # how often `settle` looks again while a job is missing


def interrupted(
    client: redis.Redis,
    name: str,
    round_number: int,
    board: int,
    count: int,
    last_attempt: bool,
) -> None:
    """The worker playing a slice of `count` boards from `board` on died (or its work-horse
    did). The games of the match in play are voided: the retry replays that match from scratch
    (records are written in batches: we cannot tell how far it got), and the matches after it.
    After the last attempt the tournament stops, saying so."""
    definition = TournamentStore(client).get(name)
    recorded = _recorded(client, definition)
    boards = range(board, board + count)
    unplayed = [b for b in boards if match_id(name, round_number, b) not in recorded]
    if not unplayed:  # killed after recording: the advance may be lost
        advance(client, name)
        return
    record_voided(client, definition.game, definition.games_per_match)
    if last_attempt:
        the_id = match_id(name, round_number, unplayed[0])
        stop(client, name, f"match {the_id}: its worker died on every attempt ({RETRIES + 1})")


def first_unrecorded(
    client: redis.Redis, name: str, round_number: int, boards: Sequence[int]
) -> int:
    """The first of `boards` with no result: the match (or table) a failed slice was playing."""
    recorded = _recorded(client, TournamentStore(client).get(name))
    return next((b for b in boards if match_id(name, round_number, b) not in recorded), boards[0])


def check_running(client: redis.Redis) -> None:
    """`check` every running tournament, at most once per CHECK_EVERY_S across the pool."""
    if not client.set(keys.tournament_check_lock(), 1, nx=True, ex=CHECK_EVERY_S):
        return
    store = TournamentStore(client)
    for name in store.names():
        if store.status(name) is Status.RUNNING:
            check(client, name)


def settle(client: redis.Redis, name: str) -> Counter[str]:
    """`check`, after dealing with abandoned jobs as a worker would (there may be none left):
    what `arena tournament status` runs first, so what it shows is true. A match whose job is
    missing is queued again once MISSING_GRACE_S has passed: this waits that out, so that the
    counts never show a running tournament with a match neither queued nor in play."""
    arena_queue(client).started_job_registry.cleanup()
    give_up = time.monotonic() + MISSING_GRACE_S + 1
    states = check(client, name)
    while states["missing"] and time.monotonic() < give_up:
        time.sleep(SETTLE_POLL_S)
        states = check(client, name)
    return states


def check(client: redis.Redis, name: str) -> Counter[str]:
    """Make a running tournament's state true: stop it (with the reason) if a match's job ended
    unplayed, queue again a match whose job is gone, advance it if nothing is left to play.
    Returns how many unplayed matches' jobs are in each RQ state (queued, started, ...) once
    that is done, and as "missing" those whose job is gone but not for MISSING_GRACE_S yet."""
    store = TournamentStore(client)
    if store.status(name) is not Status.RUNNING:
        return Counter()
    definition = store.get(name)
    places = _places(client, definition)
    recorded = _recorded(client, definition)
    unplayed = [place for place in places if match_id(name, *place) not in recorded]
    if not unplayed:
        advance(client, name)  # the job that should have gone on died after recording
        return Counter()
    ids = _job_ids(client, definition, unplayed)
    jobs = Job.fetch_many(ids, connection=client, serializer=JSONSerializer)
    states = job_states(jobs)
    since = store.since(name)  # a job queued before a resume is an old one, queued again now
    for place, job in zip(unplayed, jobs, strict=True):
        if job is None or _queued_before(job, since):
            continue
        if (status := job.get_status(refresh=False)) in ENDED_UNPLAYED:
            reason = f"its job was {status.value}{_last_line(job)}"
            stop(client, name, f"match {match_id(name, *place)} ended unplayed: {reason}")
            return states
    gone = [
        place
        for place, job in zip(unplayed, jobs, strict=True)
        if job is None
        or job.get_status(refresh=False) is JobStatus.FINISHED
        or (_queued_before(job, since) and job.get_status(refresh=False) in ENDED_UNPLAYED)
    ]
    if gone:  # a job that finished since we looked had recorded its result first
        recorded = _recorded(client, definition)
    lost = [p for p in gone if match_id(name, *p) not in recorded]
    waiting = _queue_again(client, name, lost)
    if len(lost) > waiting:  # queued again: counted as they are now
        states = job_states(Job.fetch_many(ids, connection=client, serializer=JSONSerializer))
    if waiting:
        states["missing"] = waiting
    return states


def take_off_queue(client: redis.Redis, name: str) -> int:
    """Take a stopped tournament's jobs still waiting in the queue out of it; how many. Jobs in
    play finish their match and play no more (`event_runs.still_running`); a resume queues again
    every unplayed match."""
    definition, queue = TournamentStore(client).get(name), arena_queue(client)
    recorded = _recorded(client, definition)
    unplayed = [p for p in _places(client, definition) if match_id(name, *p) not in recorded]
    taken = 0
    for the_id in dict.fromkeys(_job_ids(client, definition, unplayed)):
        job = Job.fetch_many([the_id], connection=client, serializer=JSONSerializer)[0]
        if job is not None and job.get_status(refresh=False) is JobStatus.QUEUED:
            queue.remove(job)
            job.delete()
            taken += 1
    return taken


def _places(client: redis.Redis, definition: TournamentDefinition) -> list[tuple[int, int]]:
    """(round, board) of every scheduled board."""
    rounds = encounters_of(client, definition).rounds(definition.name)
    return [(r.number, b) for r in rounds for b in range(len(boards(r)))]


def job_states(jobs: list[Job | None]) -> Counter[str]:
    """How many unplayed matches are in each state, given each one's job in place order: a
    started slice plays its first unplayed match, and the others wait in it (queued)."""
    states: Counter[str] = Counter()
    seen: set[str] = set()
    for job in jobs:
        if job is None:
            continue
        status = job.get_status(refresh=False)
        if status is JobStatus.STARTED and job.id in seen:
            status = JobStatus.QUEUED
        seen.add(job.id)
        states[status.value] += 1
    return states


def _job_ids(
    client: redis.Redis, definition: TournamentDefinition, places: list[tuple[int, int]]
) -> list[str]:
    """The id of the job playing each (round, board): the job of its round's slice."""
    sizes = JobSlices(client).sizes(definition.name)
    return [
        match_job_id(definition.name, number, slice_start(board, sizes.get(number, 1)))
        for number, board in places
    ]


def _recorded(client: redis.Redis, definition: TournamentDefinition) -> set[str]:
    return encounters_of(client, definition).recorded(definition.name)


def _queued_before(job: Job, since: float) -> bool:
    return job.enqueued_at is not None and job.enqueued_at.timestamp() < since


def _last_line(job: Job) -> str:
    result = job.latest_result()
    lines = (result.exc_string or "").strip().splitlines() if result else []
    return f" ({lines[-1]})" if lines else ""


def _queue_again(client: redis.Redis, name: str, gone: list[tuple[int, int]]) -> int:
    """Queue again, at the front, matches whose job has been gone for MISSING_GRACE_S; how
    many of `gone` are left waiting for that."""
    key, now = keys.tournament_missing(name), time.time()
    seen = {match_id(name, *place): place for place in gone}
    stale = [k for k in client.hkeys(key) if as_text(k) not in seen]
    if stale:
        client.hdel(key, *stale)
    if not seen:
        return 0
    definition = TournamentStore(client).get(name)
    rounds = {r.number: r for r in encounters_of(client, definition).rounds(name)}
    lost: dict[int, list[int]] = {}
    waiting = 0
    for the_id, (round_number, board) in seen.items():
        client.hsetnx(key, the_id, now)
        if now - float(client.hget(key, the_id) or now) < MISSING_GRACE_S:
            waiting += 1
            continue
        log.warning("match %s of %s had no job left: queued again", the_id, name)
        lost.setdefault(round_number, []).append(board)
        client.hdel(key, the_id)
    for round_number, wanted in lost.items():  # once per slice, however many of it were lost
        enqueue_round(client, definition, rounds[round_number], wanted, at_front=True)
    return waiting
