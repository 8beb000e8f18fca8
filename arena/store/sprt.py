"""SPRT A/B tests in Redis: is bot `test` stronger than bot `base`, with chosen error rates?

A test plays duplicate pairs (one deal twice, seats swapped) of `test` against `base`; each pair
scores 0, 1/2, 1, 3/2 or 2 points for `test` (stored in half points, 0..4) and is counted in the
pentanomial [LL, LD+DL, WL+DD+LW, WD+DW, WW]. After every pair the generalised SPRT
log-likelihood ratio (`arena.ratings.pentanomial.sprt_llr`, fishtest's GSPRT) is compared with
Wald's bounds: the test accepts H1 (`test` is elo1 stronger) or H0 (elo0), or stops when
`max_pairs` have been played ("capped"). Elo is normalised Elo by default, as fishtest's bounds
are (its meaning does not depend on the draw rate); logistic Elo on request.

Pair n has the id "<name>.p<n>" and its own deal; it is counted once, in one transaction that
watches the test's hash (every count writes it) together with the pair's place in the `applied`
hash, and that also decides the test's state from the counts it writes. A pair that ends after
the test is decided is not counted: the decision is the SPRT's, taken at the bounds.
"""

from __future__ import annotations

import enum
import json
import math
import re
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field

import redis

from arena.ratings import (
    EloInterval,
    RatingError,
    alike_pairs_elo,
    pair_elo,
    pair_normalized_elo,
    sprt_bounds,
    sprt_llr,
)
from arena.ratings.pentanomial import PAIR_SCORES
from arena.store import keys
from arena.store.values import as_text
from arena.tournament import lifecycle

SPRT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")
CELLS = tuple(f"p{i}" for i in range(len(PAIR_SCORES)))  # hash fields of the pentanomial counts
Counts = tuple[int, int, int, int, int]
HISTORY_LIMIT = 10_000  # points kept per test: the newest, so a long test's key stays small


class SprtError(ValueError):
    """An SPRT operation that cannot be done; the message says why."""


class UnknownSprtError(SprtError):
    pass


class State(enum.Enum):
    RUNNING = "running"
    ACCEPTED_H0 = "accepted H0"
    ACCEPTED_H1 = "accepted H1"
    STOPPED = "stopped"  # by the organiser, or because its pairs could not be played
    CAPPED = "capped"  # max_pairs played without reaching a bound


LIFECYCLE = {
    State.RUNNING: lifecycle.State.RUNNING,
    State.ACCEPTED_H0: lifecycle.State.FINISHED,
    State.ACCEPTED_H1: lifecycle.State.FINISHED,
    State.CAPPED: lifecycle.State.FINISHED,
    State.STOPPED: lifecycle.State.STOPPED,
}


@dataclass(frozen=True, slots=True)
class SprtDefinition:
    name: str
    test: str  # bot B, the new version
    base: str  # bot A, the version it must beat
    game: str = "caper"
    config: Mapping[str, str | int] = field(default_factory=lambda: {"city": "paris"})
    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    max_pairs: int | None = None
    batch_pairs: int = 8  # pairs a job plays
    parallel: int = 4  # batches queued at once: about the pool's size keeps every worker busy
    normalized: bool = True
    seed: int = 1
    move_ms: int = 1000
    bank_ms: int = 10_000
    max_strikes: int = 3
    grace_ms: int = 10_000

    def __post_init__(self) -> None:
        if not SPRT_NAME.match(self.name):
            raise SprtError(
                f"bad SPRT name {self.name!r}: use 1-40 letters, digits, '_' or '-', "
                "starting with a letter or digit"
            )
        if self.test == self.base:
            raise SprtError(f"the test and base bots must differ (both are {self.test!r})")
        if not (math.isfinite(self.elo0) and math.isfinite(self.elo1) and self.elo0 < self.elo1):
            raise SprtError(f"need finite elo0 < elo1, got elo0 {self.elo0} and elo1 {self.elo1}")
        for label, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < value < 1.0:
                raise SprtError(f"{label} must lie strictly between 0 and 1, got {value}")
        if self.alpha + self.beta >= 1.0:
            raise SprtError(f"alpha + beta must be below 1, got {self.alpha + self.beta}")
        for label, count in (("batch pairs", self.batch_pairs), ("parallel", self.parallel)):
            if count < 1:
                raise SprtError(f"{label} must be at least 1, got {count}")
        if self.max_pairs is not None and self.max_pairs < 1:
            raise SprtError(f"max pairs must be at least 1, got {self.max_pairs}")

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's (lower, upper) LLR bounds."""
        return sprt_bounds(self.alpha, self.beta)

    @property
    def model(self) -> str:
        return "normalised Elo" if self.normalized else "logistic Elo"

    def batch_pairs_of(self, batch: int) -> range:
        """The pair numbers batch `batch` plays (none past the cap)."""
        end = (batch + 1) * self.batch_pairs
        if self.max_pairs is not None:
            end = min(end, self.max_pairs)
        return range(batch * self.batch_pairs, max(end, batch * self.batch_pairs))

    def to_json(self) -> str:
        return json.dumps(asdict(self) | {"config": dict(self.config)}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> SprtDefinition:
        return cls(**json.loads(text))


def pair_id(name: str, number: int) -> str:
    return f"{name}.p{number}"


def decide(definition: SprtDefinition, counts: Counts) -> tuple[float, State]:
    """The LLR of `counts` and the state it puts the test in."""
    if sum(counts) == 0:
        return 0.0, State.RUNNING
    llr = sprt_llr(counts, definition.elo0, definition.elo1, normalized=definition.normalized)
    lower, upper = definition.bounds
    if llr >= upper:
        return llr, State.ACCEPTED_H1
    if llr <= lower:
        return llr, State.ACCEPTED_H0
    if definition.max_pairs is not None and sum(counts) >= definition.max_pairs:
        return llr, State.CAPPED
    return llr, State.RUNNING


@dataclass(frozen=True, slots=True)
class SprtStatus:
    definition: SprtDefinition
    state: State
    reason: str
    counts: Counts
    llr: float
    created: float
    ended: float | None

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    @property
    def event_state(self) -> lifecycle.State:
        """The test's state among every event's: decided or capped is finished."""
        return LIFECYCLE[self.state]

    def refusal(self, command: lifecycle.Command) -> lifecycle.LifecycleError:
        """Why the test does not take `command` now, naming its state."""
        cap = f" of {self.definition.max_pairs}" if self.definition.max_pairs is not None else ""
        detail = f"{self.pairs}{cap} pairs, LLR {self.llr:.3f}"
        if self.event_state is lifecycle.State.FINISHED:
            detail = f"{self.state.value}: {detail}"
        elif self.reason:
            detail = f"{detail}; {self.reason}"
        return lifecycle.LifecycleError(
            f"SPRT {self.definition.name}", self.event_state, command, detail
        )

    def elo(self, confidence: float = 0.95) -> EloInterval | None:
        """`test` minus `base` in the test's Elo model, with its interval; None before the first
        pair. Pairs that all scored the same have no spread: then the interval's bounds come
        from how many they are (`alike_pairs_elo`), one of them infinite for pairs all won or
        all lost, where the estimate is infinite too."""
        scores = [s for s, n in zip(PAIR_SCORES, self.counts, strict=True) for _ in range(n)]
        normalized = self.definition.normalized
        if len(set(scores)) == 1:
            return alike_pairs_elo(
                scores[0], len(scores), normalized=normalized, confidence=confidence
            )
        estimate = pair_normalized_elo if normalized else pair_elo
        try:
            return estimate(scores, confidence)
        except RatingError:
            return None

    def elo_text(self) -> str:
        """The estimate as `arena sprt status` and the SPRT page show it."""
        elo = self.elo()
        if elo is None:
            return "not yet (no pairs played)"
        low, high = f"{elo.low:.1f}", f"{elo.high:.1f}"
        if math.isfinite(elo.elo):
            return f"{elo.elo:.1f} (95% interval {low} to {high})"
        why = f"all {elo.samples} pairs scored alike"
        if math.isinf(elo.high) and math.isfinite(elo.low):
            return f"at least {low} (95% lower bound; {why})"
        if math.isinf(elo.low) and math.isfinite(elo.high):
            return f"at most {high} (95% upper bound; {why})"
        return f"between {low} and {high} (95% interval; {why})"


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    """The test after `pairs` pairs: its LLR and Elo estimate with its 95% interval (None
    while there is none; infinite for pairs that all scored alike)."""

    pairs: int
    llr: float
    elo: float | None
    low: float | None
    high: float | None

    @classmethod
    def of(cls, status: SprtStatus) -> HistoryPoint:
        elo = status.elo()
        if elo is None:
            return cls(status.pairs, status.llr, None, None, None)
        return cls(status.pairs, status.llr, elo.elo, elo.low, elo.high)

    def to_json(self) -> str:
        return json.dumps([self.pairs, self.llr, self.elo, self.low, self.high])

    @classmethod
    def from_json(cls, text: str) -> HistoryPoint:
        pairs, llr, elo, low, high = json.loads(text)
        return cls(int(pairs), float(llr), elo, low, high)


class SprtStore:
    def __init__(self, client: redis.Redis) -> None:
        self._redis = client

    def create(self, definition: SprtDefinition) -> None:
        key = keys.sprt(definition.name)
        if not self._redis.hsetnx(key, "definition", definition.to_json()):
            raise self.status(definition.name).refusal(lifecycle.Command.START)
        pipe = self._redis.pipeline()
        pipe.hset(key, mapping={"state": State.RUNNING.value, "created": time.time()})
        pipe.hset(key, mapping={"llr": repr(0.0), **dict.fromkeys(CELLS, 0)})
        pipe.sadd(keys.sprts(), definition.name)
        pipe.execute()

    def names(self) -> list[str]:
        return sorted(as_text(n) for n in self._redis.smembers(keys.sprts()))

    def get(self, name: str) -> SprtDefinition:
        return self.status(name).definition

    def status(self, name: str) -> SprtStatus:
        stored = {as_text(k): as_text(v) for k, v in self._redis.hgetall(keys.sprt(name)).items()}
        if "definition" not in stored:
            known = ", ".join(self.names()) or "none yet"
            raise UnknownSprtError(f"unknown SPRT {name!r}; known SPRTs: {known}")
        counts = tuple(int(stored.get(cell, 0)) for cell in CELLS)
        return SprtStatus(
            SprtDefinition.from_json(stored["definition"]),
            State(stored["state"]),
            stored.get("reason", ""),
            (counts[0], counts[1], counts[2], counts[3], counts[4]),
            float(stored.get("llr", 0.0)),
            float(stored["created"]),
            float(stored["ended"]) if "ended" in stored else None,
        )

    def all(self) -> list[SprtStatus]:
        return [self.status(name) for name in self.names()]

    def is_applied(self, name: str, number: int) -> bool:
        return bool(self._redis.hexists(keys.sprt_applied(name), pair_id(name, number)))

    def is_running(self, name: str) -> bool:
        return as_text(self._redis.hget(keys.sprt(name), "state") or "") == State.RUNNING.value

    def apply_pair(self, name: str, number: int, halves: int) -> SprtStatus | None:
        """Count pair `number` (scoring `halves` half points for `test`) once, and decide the
        test from the new counts, in one transaction. None if it is not counted: counted
        already, or the test is over."""
        if halves not in range(len(PAIR_SCORES)):
            raise SprtError(f"a pair scores 0 to 4 half points, got {halves!r}")
        key, applied, the_id = keys.sprt(name), keys.sprt_applied(name), pair_id(name, number)
        with self._redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(key, applied)  # type: ignore[no-untyped-call]
                    status = self.status(name)
                    if status.state is not State.RUNNING or pipe.hexists(applied, the_id):
                        return None
                    cells = list(status.counts)
                    cells[halves] += 1
                    counts: Counts = (cells[0], cells[1], cells[2], cells[3], cells[4])
                    llr, state = decide(status.definition, counts)
                    pipe.multi()
                    pipe.hset(applied, the_id, halves)
                    pipe.hset(key, mapping={CELLS[halves]: cells[halves], "llr": repr(llr)})
                    ended = None
                    if state is not State.RUNNING:
                        ended = time.time()
                        pipe.hset(key, mapping={"state": state.value, "ended": ended})
                    counted = SprtStatus(
                        status.definition, state, "", counts, llr, status.created, ended
                    )
                    history = keys.sprt_history(name)
                    pipe.rpush(history, HistoryPoint.of(counted).to_json())
                    pipe.ltrim(history, -HISTORY_LIMIT, -1)
                    pipe.execute()
                    return counted
                except redis.WatchError:
                    continue  # another pair of this test was counted first: read again

    def history(self, name: str) -> list[HistoryPoint]:
        """The test after each counted pair, oldest first; a test counted before the history
        was kept has just its current figures (none before its first pair)."""
        stored = self._redis.lrange(keys.sprt_history(name), 0, -1)
        points = [HistoryPoint.from_json(as_text(text)) for text in stored]
        status = self.status(name)
        if not points and status.pairs:
            points = [HistoryPoint.of(status)]
        return points

    def stop(self, name: str, reason: str) -> bool:
        """Stop a running test, saying why; False if it was not running."""
        key = keys.sprt(name)
        self.status(name)  # an unknown name fails here
        with self._redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(key)  # type: ignore[no-untyped-call]
                    if not self.is_running(name):
                        return False
                    pipe.multi()
                    ended = time.time()
                    pipe.hset(key, mapping={"state": State.STOPPED.value, "ended": ended})
                    pipe.hset(key, "reason", reason)
                    pipe.execute()
                    return True
                except redis.WatchError:
                    continue

    def resume(self, name: str) -> None:
        """Run a stopped test again (its counts stay), or refuse naming its state."""
        key = keys.sprt(name)
        self.status(name)  # an unknown name fails here
        with self._redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(key)  # type: ignore[no-untyped-call]
                    status = self.status(name)
                    if status.state is not State.STOPPED:
                        pipe.unwatch()
                        raise status.refusal(lifecycle.Command.RESUME)
                    pipe.multi()
                    pipe.hset(key, "state", State.RUNNING.value)
                    pipe.hdel(key, "reason", "ended")
                    pipe.execute()
                    return
                except redis.WatchError:
                    continue

    def mark_queued(self, name: str, batch: int) -> bool:
        """Record that batch `batch` is queued; False if it was already."""
        return bool(self._redis.hsetnx(keys.sprt_batches(name), str(batch), time.time()))

    def queued_batches(self, name: str) -> int:
        return int(self._redis.hlen(keys.sprt_batches(name)))
