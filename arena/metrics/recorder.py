"""Counters and histograms kept in Redis, written by whichever process saw the event.

RQ forks a process per job, so a prometheus_client counter in a worker would die with the job:
events are added to Redis hashes instead (HINCRBY, one pipeline per game) and the collector reads
them at scrape time. This module imports no prometheus_client: workers only write.

Recording never fails the caller: a lost metric is better than a lost match.
"""

from __future__ import annotations

import bisect
import json
import logging
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import redis

from arena.store import keys
from arena.store.values import as_text

log = logging.getLogger("arena.metrics")

SEPARATOR = "|"


@dataclass(frozen=True, slots=True)
class CounterSpec:
    name: str  # without "_total": the exposition adds it
    help: str
    labels: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HistogramSpec:
    name: str
    help: str
    labels: tuple[str, ...]
    buckets: tuple[float, ...]  # upper bounds, ascending; +Inf is implied


GAMES = CounterSpec(
    "arena_games",
    "Games played to the end, by game, result (seat0_win, seat1_win, draw) and termination.",
    ("game", "result", "termination"),
)
DECISION_TIMEOUTS = CounterSpec(
    "arena_decision_timeouts",
    "Decisions not answered before the deadline (each is a strike and a random move).",
    ("game",),
)
FORFEITS = CounterSpec(
    "arena_forfeits",
    "Games lost by a fault (timeouts, illegal action, disconnect, resignation), by termination.",
    ("game", "termination"),
)
VOIDED = CounterSpec(
    "arena_voided_games",
    "Games cut short by an infrastructure failure: never scored, replayed by the retried job.",
    ("game",),
)
WORKER_FAILURES = CounterSpec(
    "arena_worker_failures",
    "Jobs that raised in a worker, each attempt counted (killed workers show as failed jobs).",
    ("queue",),
)
GAME_DURATION = HistogramSpec(
    "arena_game_duration_seconds",
    "Wall time of one game, from the first decision to the result.",
    ("game",),
    (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0),
)
DECISION_LATENCY = HistogramSpec(
    "arena_decision_latency_seconds",
    "Time a seat took to answer one decision request, by seat kind (builtin, remote or hosted).",
    ("game", "seat_kind"),
    (0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
WEB_SIGNIN_FAILURES = CounterSpec(
    "arena_web_signin_failures",
    "Refused sign-ins on the web site, by reason (wrong_token or rate_limited).",
    ("reason",),
)
COUNTERS = (GAMES, DECISION_TIMEOUTS, FORFEITS, VOIDED, WORKER_FAILURES, WEB_SIGNIN_FAILURES)
HISTOGRAMS = (GAME_DURATION, DECISION_LATENCY)


def _labels(values: Sequence[str]) -> str:
    return json.dumps(list(values))


def _bucket(spec: HistogramSpec, value: float) -> int:
    """Index of the first bucket whose upper bound is >= value; len(buckets) is +Inf."""
    return bisect.bisect_left(spec.buckets, value)


def add_count(
    pipe: redis.client.Pipeline, spec: CounterSpec, labels: Sequence[str], n: int
) -> None:
    if n:
        pipe.hincrby(keys.metric_counter(spec.name), _labels(labels), n)


def add_observations(
    pipe: redis.client.Pipeline, spec: HistogramSpec, labels: Sequence[str], values: Iterable[float]
) -> None:
    """Queue the observations as one HINCRBY per non-empty bucket and one for the sum."""
    values = list(values)
    if not values:
        return
    key, prefix = keys.metric_histogram(spec.name), _labels(labels) + SEPARATOR
    for index, count in Counter(_bucket(spec, v) for v in values).items():
        pipe.hincrby(key, f"{prefix}{index}", count)
    pipe.hincrbyfloat(key, f"{prefix}sum", sum(values))


def record_game(
    client: redis.Redis,
    game: str,
    winner: int | None,
    termination: str,
    duration_s: float,
    decisions: Sequence[tuple[str, float]],
    timeouts: int,
) -> None:
    """One finished game: its result, duration, every decision's latency, timeouts, forfeit."""
    try:
        pipe = client.pipeline(transaction=False)
        queue_game(pipe, game, winner, termination, duration_s, decisions, timeouts)
        pipe.execute()
    except redis.RedisError as error:
        log.warning("could not record metrics of a %s game: %s", game, error)


def queue_game(
    pipe: redis.client.Pipeline,
    game: str,
    winner: int | None,
    termination: str,
    duration_s: float,
    decisions: Sequence[tuple[str, float]],
    timeouts: int,
) -> None:
    """`record_game`'s commands, queued on the caller's pipeline (to share its round trip)."""
    queue_games(pipe, game, winner, termination, 1)
    queue_timings(pipe, game, [duration_s], decisions, timeouts)


def queue_games(
    pipe: redis.client.Pipeline, game: str, winner: int | None, termination: str, count: int
) -> None:
    """`count` games that ended alike, counted in one go (a match's games are, per batch)."""
    result = "draw" if winner is None else f"seat{winner}_win"
    add_count(pipe, GAMES, (game, result, termination), count)
    if termination not in ("normal", "voided"):
        add_count(pipe, FORFEITS, (game, termination), count)


def queue_timings(
    pipe: redis.client.Pipeline,
    game: str,
    durations_s: Sequence[float],
    decisions: Sequence[tuple[str, float]],
    timeouts: int,
) -> None:
    """The durations of some games, their decisions' latencies and timeouts, in one go."""
    add_count(pipe, DECISION_TIMEOUTS, (game,), timeouts)
    add_observations(pipe, GAME_DURATION, (game,), durations_s)
    for kind in sorted({kind for kind, _ in decisions}):
        seconds = [s for k, s in decisions if k == kind]
        add_observations(pipe, DECISION_LATENCY, (game, kind), seconds)


def record_voided(client: redis.Redis, game: str, count: int = 1) -> None:
    """`count` games will be replayed rather than scored (a failure interrupted their match)."""
    try:
        client.hincrby(keys.metric_counter(VOIDED.name), _labels((game,)), count)
    except redis.RedisError as error:
        log.warning("could not record %d voided %s games: %s", count, game, error)


def record_signin_failure(client: redis.Redis, reason: str) -> None:
    """A sign-in on the web site was refused (`reason`: wrong_token or rate_limited)."""
    try:
        client.hincrby(keys.metric_counter(WEB_SIGNIN_FAILURES.name), _labels((reason,)), 1)
    except redis.RedisError as error:
        log.warning("could not record a refused sign-in: %s", error)


def record_job_failure(
    job: Any, exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None
) -> bool:
    """An RQ exception handler (`Worker(exception_handlers=[...])`); lets later handlers run."""
    try:
        job.connection.hincrby(
            keys.metric_counter(WORKER_FAILURES.name), _labels((str(job.origin),)), 1
        )
    except redis.RedisError as error:
        log.warning("could not record the failure of job %s: %s", job.id, error)
    return True


def read_counter(client: redis.Redis, spec: CounterSpec) -> dict[tuple[str, ...], int]:
    raw = client.hgetall(keys.metric_counter(spec.name))
    return {tuple(json.loads(as_text(k))): int(v) for k, v in raw.items()}


@dataclass(frozen=True, slots=True)
class HistogramData:
    counts: tuple[int, ...]  # per bucket, not cumulative; the last one is +Inf
    total: float


def read_histogram(
    client: redis.Redis, spec: HistogramSpec
) -> dict[tuple[str, ...], HistogramData]:
    counts: dict[tuple[str, ...], list[int]] = {}
    sums: dict[tuple[str, ...], float] = {}
    for field, value in client.hgetall(keys.metric_histogram(spec.name)).items():
        labels_json, _, slot = as_text(field).rpartition(SEPARATOR)
        labels = tuple(json.loads(labels_json))
        row = counts.setdefault(labels, [0] * (len(spec.buckets) + 1))
        if slot == "sum":
            sums[labels] = float(value)
        else:
            row[int(slot)] += int(value)
    return {
        labels: HistogramData(tuple(row), sums.get(labels, 0.0)) for labels, row in counts.items()
    }
