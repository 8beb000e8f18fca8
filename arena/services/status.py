"""The arena as an operator sees it, read from Redis alone: Redis itself, gateways, workers,
queues, running events, ladders, SPRT tests, and the alerts' conditions that one look can
evaluate (`arena.services.alert_rules`). `arena status` renders it; `as_json` is its `--json`
shape, documented in the README (keep the two in step).

Nothing here writes to Redis.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any, cast

import redis

from arena.metrics.collector import queue_depths
from arena.metrics.health_series import JOB_STATES, job_event, jobs_per_event, running_events
from arena.metrics.recorder import VOIDED, WORKER_FAILURES, read_counter
from arena.services.alert_rules import RULES, runbook
from arena.services.rq_workers import live_workers
from arena.store import keys
from arena.store.ladders import LadderStore
from arena.store.sprt import SprtStore
from arena.store.values import as_text

# A gateway's beat key lives this long after its last beat (arena.gateway.hub.ONLINE_TTL_S, not
# imported: that would load the gRPC server to read a number; tests/services pins the two).
GATEWAY_BEAT_TTL_S = 3


@dataclass(frozen=True, slots=True)
class RedisState:
    reachable: bool
    error: str = ""
    version: str = ""
    used_memory_bytes: int = 0
    used_memory_human: str = ""
    aof_enabled: bool = False
    rdb_enabled: bool | None = None  # None: CONFIG GET is not allowed on this server
    last_save: float | None = None  # when the last RDB snapshot was written (Unix time)
    last_bgsave_status: str = ""  # "ok" or "err"
    changes_since_last_save: int = 0


@dataclass(frozen=True, slots=True)
class GatewayState:
    id: str
    serving: bool  # its heartbeat lives: it reaches Redis and serves
    heartbeat_age_s: float | None  # None: no beat (died, hangs or lost Redis)
    connected_bots: int
    started: float


@dataclass(frozen=True, slots=True)
class WorkerState:
    name: str
    queues: list[str]
    state: str  # RQ's: "busy", "idle", "suspended", ...
    current_job: str | None
    playing: str | None  # "tournament cup", "sprt t1", or None for an idle worker or other job
    heartbeat_age_s: float | None


@dataclass(frozen=True, slots=True)
class EventState:
    kind: str  # "tournament" or "sprt"
    name: str
    jobs: dict[str, int]  # by state: queued, started, scheduled, deferred


@dataclass(frozen=True, slots=True)
class LadderState:
    name: str
    game: str
    rules_version: int
    bots: int
    matches: int  # numbered (queued at some point)
    rated_results: int


@dataclass(frozen=True, slots=True)
class SprtState:
    name: str
    state: str
    pairs: int
    llr: float
    lower: float
    upper: float


@dataclass(frozen=True, slots=True)
class AlertState:
    name: str
    severity: str
    evaluated: bool  # False: it needs Prometheus (see `detail`)
    firing: bool
    detail: str  # what holds when firing, why not evaluated otherwise
    runbook: str


@dataclass(frozen=True, slots=True)
class ArenaStatus:
    checked_at: float
    redis: RedisState
    gateways: list[GatewayState] = field(default_factory=list)
    workers: list[WorkerState] = field(default_factory=list)
    queues: dict[str, dict[str, int]] = field(default_factory=dict)
    events: list[EventState] = field(default_factory=list)
    ladders: list[LadderState] = field(default_factory=list)
    sprt_tests: list[SprtState] = field(default_factory=list)
    alerts: list[AlertState] = field(default_factory=list)

    @property
    def firing(self) -> list[AlertState]:
        return [alert for alert in self.alerts if alert.firing]

    @property
    def ok(self) -> bool:
        return self.redis.reachable and not self.firing


def arena_status(client: redis.Redis) -> ArenaStatus:
    """Everything at once; Redis unreachable gives a status with only that (and its alert)."""
    now = time.time()
    try:
        return _gathered(client, now)
    except redis.RedisError as error:
        down = RedisState(reachable=False, error=str(error) or type(error).__name__)
        return ArenaStatus(now, down, alerts=evaluate_alerts(down, [], [], {}, []))


@dataclass(frozen=True, slots=True)
class MachinesStatus:
    """The workers and their queues, as the site's workers page shows them: a lighter read
    than `arena_status` (no ladders, tests or alerts)."""

    checked_at: float
    workers: list[WorkerState]
    queues: dict[str, dict[str, int]]  # by queue: jobs by state, "failed" among them
    job_failures: dict[str, int]  # by queue: every failed attempt since the store began
    voided_games: dict[str, int]  # by game: games cut short by a failure, replayed unscored


def machines_status(client: redis.Redis) -> MachinesStatus:
    now = time.time()
    return MachinesStatus(
        now,
        worker_states(client, now),
        queue_depths(client),
        _counted(read_counter(client, WORKER_FAILURES)),
        _counted(read_counter(client, VOIDED)),
    )


def _counted(counter: dict[tuple[str, ...], int]) -> dict[str, int]:
    """A counter with one label, by that label's value."""
    return {labels[0]: count for labels, count in sorted(counter.items())}


def as_json(status: ArenaStatus) -> dict[str, Any]:
    """The `--json` shape: every field of the dataclasses, plus `ok`."""
    return {"ok": status.ok, **asdict(status)}


def _gathered(client: redis.Redis, now: float) -> ArenaStatus:
    state = redis_state(client)
    gateways, workers = gateway_states(client), worker_states(client, now)
    queues, events = queue_depths(client), event_states(client)
    alerts = evaluate_alerts(state, gateways, workers, queues, events)
    return ArenaStatus(
        now, state, gateways, workers, queues, events,
        ladder_states(client), sprt_states(client), alerts,
    )  # fmt: skip


def redis_state(client: redis.Redis) -> RedisState:
    info = client.info()
    try:
        save = cast(dict[str, str], client.config_get("save")).get("save", "")
        rdb: bool | None = bool(save.strip())
    except redis.ResponseError:  # managed servers may refuse CONFIG
        rdb = None
    last_save = info.get("rdb_last_save_time")
    return RedisState(
        reachable=True,
        version=str(info.get("redis_version", "")),
        used_memory_bytes=int(info.get("used_memory", 0)),
        used_memory_human=str(info.get("used_memory_human", "")),
        aof_enabled=bool(int(info.get("aof_enabled", 0))),
        rdb_enabled=rdb,
        last_save=float(last_save) if last_save else None,
        last_bgsave_status=str(info.get("rdb_last_bgsave_status", "")),
        changes_since_last_save=int(info.get("rdb_changes_since_last_save", 0)),
    )


def gateway_states(client: redis.Redis) -> list[GatewayState]:
    """Listed gateways with their beat's age and the bots whose streams they hold."""
    listed = cast(list[tuple[bytes, float]], client.zrange(keys.gateways(), 0, -1, withscores=True))
    pipe = client.pipeline(transaction=False)
    for gateway, _ in listed:
        pipe.pttl(keys.gateway_beat(keys.gateway_wake(as_text(gateway))))
    ttls = pipe.execute()
    held = _bots_per_gateway(client)
    states = []
    for (gateway, started), ttl_ms in zip(listed, ttls, strict=True):
        name = as_text(gateway)
        age = round(max(0.0, GATEWAY_BEAT_TTL_S - ttl_ms / 1000), 3) if ttl_ms > 0 else None
        bots = held.get(keys.gateway_wake(name), 0)
        states.append(GatewayState(name, age is not None, age, bots, started))
    return states


def _bots_per_gateway(client: redis.Redis) -> dict[str, int]:
    """Online bots per gateway wake list (the one that holds each stream)."""
    names = cast(dict[bytes, bytes], client.hgetall(keys.bot_names()))
    ids = sorted({as_text(bot_id) for bot_id in names.values()})
    pipe = client.pipeline(transaction=False)
    for bot_id in ids:
        pipe.exists(keys.bot_online(bot_id))
        pipe.get(keys.bot_gateway(bot_id))
    replies = pipe.execute()
    held: dict[str, int] = {}
    for online, wake in zip(replies[::2], replies[1::2], strict=True):
        if online and wake is not None:
            held[as_text(wake)] = held.get(as_text(wake), 0) + 1
    return held


def worker_states(client: redis.Redis, now: float) -> list[WorkerState]:
    """Live RQ workers (their key has not expired), what each plays and its heartbeat's age."""
    states = []
    for worker in live_workers(client):
        job, beat = worker.current_job, worker.last_heartbeat
        event = job_event(job) if job else None
        states.append(
            WorkerState(
                name=worker.name,
                queues=list(worker.queues),
                state=worker.state,
                current_job=job,
                playing=" ".join(event) if event else None,
                heartbeat_age_s=round(max(0.0, now - beat.timestamp()), 3) if beat else None,
            )
        )
    return states


def event_states(client: redis.Redis) -> list[EventState]:
    """Each running tournament and SPRT test with its jobs by state."""
    running = running_events(client)
    counts = jobs_per_event(client) if running else Counter()
    return [
        EventState(kind, name, {s: counts[kind, name, s] for s in JOB_STATES})
        for kind, name in running
    ]


def ladder_states(client: redis.Redis) -> list[LadderState]:
    ladders = LadderStore(client).all()
    pipe = client.pipeline(transaction=False)
    for ladder in ladders:
        pipe.zcard(keys.ladder_board(ladder.ref.slug, "games"))
        pipe.get(keys.ladder_sequence(ladder.ref.slug))
        pipe.llen(keys.ladder_log(ladder.ref.slug))
    replies = pipe.execute()
    return [
        LadderState(
            ladder.ref.name,
            ladder.ref.game,
            ladder.ref.rules_version,
            int(replies[3 * i]),
            int(replies[3 * i + 1] or 0),
            int(replies[3 * i + 2]),
        )
        for i, ladder in enumerate(ladders)
    ]


def sprt_states(client: redis.Redis) -> list[SprtState]:
    return [
        SprtState(s.definition.name, s.state.value, s.pairs, s.llr, *s.definition.bounds)
        for s in SprtStore(client).all()
    ]


def evaluate_alerts(
    state: RedisState,
    gateways: list[GatewayState],
    workers: list[WorkerState],
    queues: dict[str, dict[str, int]],
    events: list[EventState],
) -> list[AlertState]:
    """Every alert of the rules file: the instant ones evaluated as its expressions say, the
    others marked as needing Prometheus."""
    found = _conditions(state, gateways, workers, queues, events)
    return [
        AlertState(
            rule.name,
            rule.severity,
            rule.instant,
            bool(found.get(rule.name)),
            found.get(rule.name, "") or rule.why_not,
            runbook(rule.name),
        )
        for rule in RULES
    ]


def _conditions(
    state: RedisState,
    gateways: list[GatewayState],
    workers: list[WorkerState],
    queues: dict[str, dict[str, int]],
    events: list[EventState],
) -> dict[str, str]:
    """Alert name -> what holds, for the instant alerts whose condition holds now."""
    if not state.reachable:
        return {"ArenaRedisUnreachable": f"Redis: {state.error}"}
    found: dict[str, str] = {}
    queued = sum(states.get("queued", 0) for states in queues.values())
    if not workers and (queued or events):
        waiting = [f"{queued} job{'s' if queued > 1 else ''} queued"] if queued else []
        waiting += [f"{e.kind} {e.name} running" for e in events]
        found["ArenaNoLiveWorker"] = "no live worker while " + ", ".join(waiting)
    if down := [g.id for g in gateways if not g.serving]:
        found["ArenaGatewayDown"] = "gateway without a beat: " + ", ".join(down)
    if not any(g.serving for g in gateways):
        found["ArenaNoGatewayServing"] = "no gateway beats while Redis is up"
    if idle := [f"{e.kind} {e.name}" for e in events if not any(e.jobs.values())]:
        found["ArenaEventIdle"] = "running with nothing queued or in play: " + ", ".join(idle)
    return found
