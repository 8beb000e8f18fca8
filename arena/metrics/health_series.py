"""Series the alerts need beyond the arena's counters: whether each gateway beats, each running
event's jobs (queued or in play) and each ladder's numbered matches, all read from Redis at
scrape time like the rest.

A running event's jobs are found by their ids: RQ job ids are fixed per match or batch
(`match_<tournament>_r<round>_b<board>`, `sprt_<test>_b<batch>`), so one read of the queue and
of its registries attributes every job without fetching any job.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import cast

import redis
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from rq import Queue
from rq.registry import StartedJobRegistry
from rq.serializers import JSONSerializer

from arena.metrics.bot_series import LADDER_LABELS, ladder_labels
from arena.store import keys
from arena.store.ladders import LadderDefinition
from arena.store.sprt import State
from arena.store.tournaments import Status
from arena.store.values import as_text

# How each kind of event's job ids look (job_queue.match_job_id, sprt_runs.batch_job_id).
JOB_ID_EVENT = {
    "tournament": re.compile(r"match_(?P<event>.+)_r[0-9]+_b[0-9]+"),
    "sprt": re.compile(r"sprt_(?P<event>.+)_b[0-9]+"),
}
JOB_STATES = ("queued", "started", "scheduled", "deferred")


def gateway_families(client: redis.Redis) -> list[Metric]:
    """1 per listed gateway whose heartbeat lives (it beats every second while it reaches Redis,
    and so serves), 0 per one listed without: it died, hangs, or lost Redis (NOT_SERVING)."""
    up = GaugeMetricFamily(
        "arena_gateway_up",
        "1 if the gateway beat in the last seconds (it reaches Redis and serves), else 0.",
        labels=["gateway"],
    )
    listed = [as_text(g) for g in cast(list[bytes], client.zrange(keys.gateways(), 0, -1))]
    pipe = client.pipeline(transaction=False)
    for gateway in listed:
        pipe.exists(keys.gateway_beat(keys.gateway_wake(gateway)))
    for gateway, beating in zip(listed, pipe.execute(), strict=True):
        up.add_metric([gateway], float(bool(beating)))
    return [up]


def event_families(client: redis.Redis) -> list[Metric]:
    """Per running tournament and SPRT test, its jobs by state (0 when it has none)."""
    jobs = GaugeMetricFamily(
        "arena_event_jobs",
        "RQ jobs of each running event (tournament or SPRT test) by state "
        "(queued, started, scheduled, deferred).",
        labels=["kind", "event", "state"],
    )
    running = running_events(client)
    counts = jobs_per_event(client) if running else Counter()
    for kind, event in running:
        for state in JOB_STATES:
            jobs.add_metric([kind, event, state], float(counts[kind, event, state]))
    return [jobs]


def ladder_match_family(ladders: Sequence[LadderDefinition], numbered: Sequence[int]) -> Metric:
    """Matches each ladder has numbered (queued at some point); its rated results lag them by
    the matches queued, in play, or lost."""
    family = CounterMetricFamily(
        "arena_ladder_matches",
        "Matches the ladder has queued, rated or not yet.",
        labels=LADDER_LABELS,
    )
    for ladder, count in zip(ladders, numbered, strict=True):
        family.add_metric(ladder_labels(ladder), float(count))
    return family


def running_events(client: redis.Redis) -> list[tuple[str, str]]:
    tournaments = sorted(as_text(n) for n in client.smembers(keys.tournaments()))
    sprts = sorted(as_text(n) for n in client.smembers(keys.sprts()))
    pipe = client.pipeline(transaction=False)
    for name in tournaments:
        pipe.hget(keys.tournament(name), "status")
    for name in sprts:
        pipe.hget(keys.sprt(name), "state")
    states = [as_text(s) if s is not None else "" for s in pipe.execute()]
    named = [*(("tournament", n) for n in tournaments), *(("sprt", n) for n in sprts)]
    running = (Status.RUNNING.value, State.RUNNING.value)
    return [event for event, state in zip(named, states, strict=True) if state in running]


def jobs_per_event(client: redis.Redis) -> Counter[tuple[str, str, str]]:
    queues = Queue.all(connection=client, serializer=JSONSerializer)
    pipe = client.pipeline(transaction=False)
    for queue in queues:
        pipe.lrange(queue.key, 0, -1)
        pipe.zrange(queue.started_job_registry.key, 0, -1)
        pipe.zrange(queue.scheduled_job_registry.key, 0, -1)
        pipe.zrange(queue.deferred_job_registry.key, 0, -1)
    replies = iter(pipe.execute())
    counts: Counter[tuple[str, str, str]] = Counter()
    for _ in queues:
        for state in JOB_STATES:
            for entry in next(replies):
                job_id = as_text(entry)
                if state == "started":
                    job_id = StartedJobRegistry.parse_job_id(job_id)
                event = job_event(job_id)
                if event is not None:
                    counts[(*event, state)] += 1
    return counts


def job_event(job_id: str) -> tuple[str, str] | None:
    """(kind, event name) of an event's job, None for any other job."""
    for kind, pattern in JOB_ID_EVENT.items():
        found = pattern.fullmatch(job_id)
        if found is not None:
            return kind, found["event"]
    return None
