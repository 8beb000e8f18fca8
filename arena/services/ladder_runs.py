"""The worker pool keeps a started ladder playing: no process of its own is needed.

`fill` pairs the ladder's idle eligible bots (see `arena.ratings.matchmaking`; tables of three on
a ladder of the Snitch game, which only Weng-Lin rates) while fewer than its `concurrency`
matches are in flight, and queues their ladder match jobs (`workers.ladder`), all in one
transaction (`arena.store.ladder_runs`): it may be called by any process at any time, and two at
once never seat a bot twice or exceed the concurrency. It is called when a ladder starts or
resumes (`services.ladders`), by each ladder match job as it ends (`match_ended`), and every few
seconds by a worker's maintenance (`fill_running`), so remote bots that connect later are paired
and a ladder whose bots were all away picks up again.

Eligible are the ladder's enabled built-in bots and, if the ladder takes remote bots, every
registered bot whose gateway stream is live and every hosted bot (the arena runs its program, so
it plays with no one online).
"""

from __future__ import annotations

import logging
import math
import random

import redis
from redis.client import Pipeline
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer

from arena.ratings.matchmaking import Candidate, choose_pairs, choose_tables, weng_lin_candidate
from arena.store import keys
from arena.store.job_queue import arena_queue, retry_policy, seated_timeout_s
from arena.store.ladder_runs import FillView, InFlight, LadderRuns
from arena.store.ladders import LadderDefinition, LadderRef, LadderStore, slug_ref
from arena.store.ratings import RatingStore
from arena.store.values import as_text
from arena.tournament.lifecycle import State

log = logging.getLogger("arena.workers")

JOB_FUNCTION = "workers.ladder.play_ladder_match"
DONE = {JobStatus.FINISHED, JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED}
FILL_EVERY_S = 3  # how often the pool fills every running ladder


def ladder_job_id(slug: str, number: int) -> str:
    # RQ job ids allow only [A-Za-z0-9_-]; slugs hold dots. Read from the right: "_m<number>".
    return f"ladder_{slug.replace('.', '_')}_m{number}"


def job_timeout_s(definition: LadderDefinition) -> int:
    """The longest a match may take if every bot uses all of its time, with a margin."""
    return seated_timeout_s(
        definition.games_per_match,
        definition.players,
        definition.move_ms,
        definition.bank_ms,
        definition.grace_ms,
    )


def queue_match(
    client: redis.Redis,
    definition: LadderDefinition,
    number: int,
    players: tuple[str, ...],
    pipeline: Pipeline | None = None,
) -> str:
    """Queue match `number` between `players` (one a side), on `pipeline` if given; its job id.
    A retried or re-queued number plays the same deals and is never rated twice."""
    slug = definition.ref.slug
    job_id = ladder_job_id(slug, number)
    arena_queue(client).enqueue(
        JOB_FUNCTION,
        args=(slug, number, *players),
        job_id=job_id,
        job_timeout=job_timeout_s(definition),
        retry=retry_policy(),
        result_ttl=3600,
        failure_ttl=7 * 24 * 3600,
        description=f"ladder {definition.ref}: match {number}, {' vs '.join(players)}",
        pipeline=pipeline,
    )
    return job_id


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


def reap(client: redis.Redis, slug: str) -> list[InFlight]:
    """Free the bots of matches whose jobs ended or are gone (a job ending normally frees its
    own; this catches a worker killed on the last attempt, or a job deleted); those matches."""
    runs = LadderRuns(client)
    entries = runs.in_flight(slug)
    if not entries:
        return []
    ids = [e.job_id for e in entries]
    jobs = Job.fetch_many(ids, connection=client, serializer=JSONSerializer)
    ended = [e for e, job in zip(entries, jobs, strict=True) if job is None or _ended(job)]
    runs.forget(slug, [e.job_id for e in ended])
    return ended


def _ended(job: Job) -> bool:
    status = job.get_status(refresh=False)
    return status is None or status in DONE


def fill(
    client: redis.Redis,
    ref: LadderRef,
    concurrency: int | None = None,
    limit: float = math.inf,
    close: bool = False,
    rng: random.Random | None = None,
) -> list[InFlight]:
    """Queue matches for the idle eligible bots of a running ladder, up to its concurrency (or
    `concurrency`, given by a caller that drives a ladder not started yet) and at most `limit`;
    `close`: none after these. The matches queued; none when it is stopped or full."""
    store = LadderStore(client)
    if not _takes_fill(store.state(ref), concurrency):
        return []
    reap(client, ref.slug)
    chooser = rng or random.Random()

    def choose(view: FillView) -> list[tuple[str, ...]]:
        if not _takes_fill(view.state, concurrency):
            return []
        definition = store.get(ref)  # bots may be enabled or disabled while it runs
        slots = int(min(view.slots(concurrency), limit))
        idle = [p for p in eligible_players(client, definition) if p not in view.busy]
        if slots <= 0 or len(idle) < definition.sides:
            return []
        return choose_matches(client, definition, idle, slots, chooser, view.last_opponents)

    definition = store.get(ref)

    def enqueue(pipe: Pipeline, number: int, players: tuple[str, ...]) -> str:
        return queue_match(client, definition, number, players, pipe)

    return LadderRuns(client).fill(ref.slug, choose, enqueue, close)


def _takes_fill(state: State, concurrency: int | None) -> bool:
    """A running ladder is filled; a created one only by a caller driving it
    (`arena ladder run`'s matchmaker, given its concurrency)."""
    return state is State.RUNNING or (state is State.CREATED and concurrency is not None)


def choose_matches(
    client: redis.Redis,
    definition: LadderDefinition,
    idle: list[str],
    slots: int,
    rng: random.Random,
    last: dict[str, tuple[str, ...]],
) -> list[tuple[str, ...]]:
    standings = RatingStore(client).standings(definition, idle)
    if definition.tables:
        candidates = [weng_lin_candidate(n, s.mu, s.sigma, s.games) for n, s in standings.items()]
        return choose_tables(candidates, definition.sides, slots, rng, last)
    pairs = [Candidate(n, s.rating, s.rd, s.games) for n, s in standings.items()]
    previous = {name: opponents[0] for name, opponents in last.items() if opponents}
    return list(choose_pairs(pairs, slots, rng, previous))


def match_ended(client: redis.Redis, slug: str, job_id: str) -> list[InFlight]:
    """A ladder match job is done (played and rated, or not played): free its bots and fill
    the ladder again; the matches queued."""
    LadderRuns(client).forget(slug, [job_id])
    return fill(client, slug_ref(slug))


def fill_running(client: redis.Redis) -> None:
    """`fill` every running ladder, at most once per FILL_EVERY_S across the pool (run by the
    workers' maintenance: bots that came online are paired with nobody watching)."""
    if not client.set(keys.ladders_fill_lock(), 1, nx=True, ex=FILL_EVERY_S):
        return
    store = LadderStore(client)
    for ref in store.refs():
        try:
            if store.state(ref) is State.RUNNING:
                fill(client, ref)
        except Exception:  # one ladder that cannot be filled must not stop the others
            log.exception("filling ladder %s failed", ref)
