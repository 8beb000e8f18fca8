"""The custom collector: reads Redis at scrape time and yields the arena's metric families.

Per-bot series are bounded: on each ladder only the `top_n` bots with the most rated results are
exported (the ladder's bot count says how many there are in all). Nothing is labelled by game or
match id. Reads are pipelined: a scrape costs a handful of round trips whatever the ladder sizes.
`exposition()` is what /metrics serves: the same families, the per-bot ones rendered fast.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import redis
from prometheus_client import generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector
from rq import Queue, worker_registration
from rq.registry import BaseRegistry
from rq.serializers import JSONSerializer

from arena.metrics.bot_series import (
    LADDER_LABELS,
    Tops,
    bot_exposition,
    bot_families,
    ladder_labels,
)
from arena.metrics.health_series import event_families, gateway_families, ladder_match_family
from arena.metrics.recorder import (
    COUNTERS,
    HISTOGRAMS,
    CounterSpec,
    HistogramSpec,
    read_counter,
    read_histogram,
)
from arena.metrics.sprt_series import sprt_families
from arena.store import keys
from arena.store.ladders import LadderDefinition, LadderStore
from arena.store.ratings.records import Summary, parse_summary
from arena.store.values import as_text

log = logging.getLogger("arena.metrics")

DEFAULT_TOP_N = 100

# A whole hash (or its values) as one string: redis-py parses a reply element by element (10,000
# bots are 40,000 elements of two hashes), while one string splits in C. Bot names and ids,
# summaries and skill values hold no newline (names are [A-Za-z0-9_.-] or built-in specs).
_JOINED = "return table.concat(redis.call(ARGV[1], KEYS[1]), '\\n')"


def _joined(client: redis.Redis | redis.client.Pipeline, command: str, key: str) -> Any:
    """Queue (or, on a client, run) `command key` with its reply joined into one string."""
    return client.execute_command("EVAL", _JOINED, 1, key, command)  # type: ignore[no-untyped-call]


def _split(reply: bytes | str) -> list[str]:
    text = as_text(reply)
    return text.split("\n") if text else []


@dataclass(frozen=True, slots=True)
class _Scrape:
    families: list[Metric]  # everything but the per-bot series
    tops: Tops  # the exported bots of each ladder


class _Fixed(Collector):
    def __init__(self, families: Iterable[Metric]) -> None:
        self._families = list(families)

    def collect(self) -> Iterator[Metric]:
        return iter(self._families)


class ArenaCollector(Collector):
    def __init__(self, client: redis.Redis, top_n: int = DEFAULT_TOP_N) -> None:
        if top_n < 0:
            raise ValueError(f"top N must not be negative, got {top_n}")
        self._redis, self._top_n = client, top_n
        self._redis_up = True  # so an outage is logged once, not at every scrape

    def describe(self) -> list[Metric]:
        return []  # registering must not read Redis; families are only known at scrape time

    def collect(self) -> Iterator[Metric]:
        scrape = self._scrape()
        yield from scrape.families
        yield from bot_families(scrape.tops)

    def exposition(self) -> bytes:
        """This scrape in the Prometheus text format, as /metrics serves it."""
        scrape = self._scrape()
        return generate_latest(_Fixed(scrape.families)) + bot_exposition(scrape.tops).encode()

    def _scrape(self) -> _Scrape:
        started = time.perf_counter()
        up = GaugeMetricFamily("arena_redis_up", "1 if this scrape could read Redis, else 0.")
        tops: Tops = []
        try:
            ladder_families, tops = self._ladders()
            families = [
                *ladder_families,
                *(_counter(self._redis, spec) for spec in COUNTERS),
                *(_histogram(self._redis, spec) for spec in HISTOGRAMS),
                *self._bots(),
                *self._queues(),
                *sprt_families(self._redis),
                *gateway_families(self._redis),
                *event_families(self._redis),
            ]
            up.add_metric([], 1.0)
            if not self._redis_up:
                log.warning("metrics scrapes read Redis again")
            self._redis_up = True
        except redis.RedisError as error:
            if self._redis_up:
                log.warning("metrics scrape could not read Redis: %s", error)
            self._redis_up = False
            families, tops = [], []
            up.add_metric([], 0.0)
        duration = GaugeMetricFamily(
            "arena_metrics_collect_duration_seconds",
            "Time the last scrape spent reading Redis.",
            value=time.perf_counter() - started,
        )
        return _Scrape([*families, up, duration], tops)

    def _ladders(self) -> tuple[list[Metric], Tops]:
        ladders = LadderStore(self._redis).all()
        pipe = self._redis.pipeline(transaction=False)
        for ladder in ladders:
            pipe.zcard(keys.ladder_board(ladder.ref.slug, "games"))
            pipe.llen(keys.ladder_log(ladder.ref.slug))
            pipe.get(keys.ladder_sequence(ladder.ref.slug))
        replies = pipe.execute()
        players = GaugeMetricFamily(
            "arena_ladder_bots", "Bots with a rating on the ladder.", labels=LADDER_LABELS
        )
        results = CounterMetricFamily(
            "arena_ladder_rated_results", "Results rated on the ladder.", labels=LADDER_LABELS
        )
        threshold = GaugeMetricFamily(
            "arena_ladder_provisional_deviation",
            "Ratings with a deviation above this are provisional on the ladder.",
            labels=LADDER_LABELS,
        )
        for index, ladder in enumerate(ladders):
            labels = ladder_labels(ladder)
            players.add_metric(labels, float(replies[3 * index]))
            results.add_metric(labels, float(replies[3 * index + 1]))
            threshold.add_metric(labels, ladder.params.provisional_rd)
        sizes = [int(replies[3 * index]) for index in range(len(ladders))]
        numbered = [int(replies[3 * index + 2] or 0) for index in range(len(ladders))]
        tops = list(zip(ladders, self._top_bots(ladders, sizes), strict=True))
        return [players, results, threshold, ladder_match_family(ladders, numbered)], tops

    def _top_bots(
        self, ladders: Sequence[LadderDefinition], sizes: Sequence[int]
    ) -> list[list[tuple[str, Summary]]]:
        """Per ladder, the `top_n` bots with the most results and their summaries."""
        wanted = [min(self._top_n, size) for size in sizes]
        # Where only some bots are exported, find which: the most rated results first.
        pipe = self._redis.pipeline(transaction=False)
        some = [i for i, n in enumerate(wanted) if 0 < n < sizes[i]]
        for i in some:
            pipe.zrevrange(keys.ladder_board(ladders[i].ref.slug, "games"), 0, wanted[i] - 1)
        names = {
            i: [as_text(n) for n in found] for i, found in zip(some, pipe.execute(), strict=True)
        }
        # Then every exported bot's summary and Weng-Lin values; the whole hashes where every
        # bot is exported.
        pipe = self._redis.pipeline(transaction=False)
        for i, ladder in enumerate(ladders):
            slug = ladder.ref.slug
            for key in (keys.ladder_summary(slug), keys.ladder_skill(slug)):
                if i in names:
                    pipe.hmget(key, names[i])
                elif wanted[i]:
                    _joined(pipe, "HGETALL", key)
        replies = iter(pipe.execute())
        tops: list[list[tuple[str, Summary]]] = []
        for i in range(len(ladders)):
            if i in names:
                rows = zip(names[i], next(replies), next(replies), strict=True)
                tops.append([(n, parse_summary(v, s)) for n, v, s in rows if v is not None])
            elif wanted[i]:
                summaries, flat = _split(next(replies)), _split(next(replies))
                skills = dict(zip(flat[::2], flat[1::2], strict=True))
                pairs = zip(summaries[::2], summaries[1::2], strict=True)
                tops.append([(n, parse_summary(v, skills.get(n))) for n, v in pairs])
            else:
                tops.append([])
        return tops

    def _bots(self) -> list[Metric]:
        ids = _split(_joined(self._redis, "HVALS", keys.bot_names()))
        online = self._redis.exists(*(keys.bot_online(b) for b in ids)) if ids else 0
        registered = GaugeMetricFamily("arena_registered_bots", "Registered remote bots.")
        registered.add_metric([], float(len(ids)))
        connected = GaugeMetricFamily(
            "arena_connected_bots", "Registered bots with a live stream to a gateway."
        )
        connected.add_metric([], float(online))
        return [registered, connected]

    def _queues(self) -> list[Metric]:
        depth = GaugeMetricFamily(
            "arena_queue_jobs",
            "RQ jobs per queue and state (queued, started, deferred, scheduled, failed).",
            labels=["queue", "state"],
        )
        for queue, states in queue_depths(self._redis).items():
            for state, count in states.items():
                depth.add_metric([queue, state], float(count))
        workers = GaugeMetricFamily("arena_workers", "RQ workers registered and alive.")
        workers.add_metric([], float(live_workers(self._redis)))
        return [depth, workers]


QUEUE_STATES = ("queued", "started", "deferred", "scheduled", "failed")


def live_workers(client: redis.Redis) -> int:
    """RQ workers whose key lives: a worker killed at once stays in RQ's registry (what
    Worker.count counts) until a live worker tidies it, but its key expires with its heartbeat.
    Read only: a scrape must not write."""
    registered = sorted(worker_registration.get_keys(connection=client))
    pipe = client.pipeline(transaction=False)
    for key in registered:
        pipe.exists(key)
    return sum(pipe.execute()) if registered else 0


def queue_depths(client: redis.Redis) -> dict[str, dict[str, int]]:
    """Each RQ queue's jobs by state (QUEUE_STATES), in one pipelined read."""
    queues = Queue.all(connection=client, serializer=JSONSerializer)
    pipe = client.pipeline(transaction=False)
    for queue in queues:
        pipe.llen(queue.key)
        for registry in _registries(queue):
            pipe.zcard(registry.key)  # no cleanup: a scrape must not write
    replies = iter(pipe.execute())
    return {q.name: {state: int(next(replies)) for state in QUEUE_STATES} for q in queues}


def _registries(queue: Queue) -> tuple[BaseRegistry, ...]:
    return (
        queue.started_job_registry,
        queue.deferred_job_registry,
        queue.scheduled_job_registry,
        queue.failed_job_registry,
    )


def _counter(client: redis.Redis, spec: CounterSpec) -> Metric:
    family = CounterMetricFamily(spec.name, spec.help, labels=spec.labels)
    for labels, value in sorted(read_counter(client, spec).items()):
        family.add_metric(list(labels), float(value))
    return family


def _histogram(client: redis.Redis, spec: HistogramSpec) -> Metric:
    family = HistogramMetricFamily(spec.name, spec.help, labels=spec.labels)
    bounds = [*(f"{b}" for b in spec.buckets), "+Inf"]
    for labels, data in sorted(read_histogram(client, spec).items()):
        cumulative, running = [], 0
        for bound, count in zip(bounds, data.counts, strict=True):
            running += count
            cumulative.append((bound, float(running)))
        family.add_metric(list(labels), cumulative, data.total)
    return family
