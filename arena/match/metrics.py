"""What the referee's games feed to the metrics: per-decision latency, timeouts, the result.

Seats are wrapped rather than the referee changed: the wrapper times each `decide` call exactly as
the referee's clock does, and the whole game is written to Redis in one pipeline at its end.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

import redis

from arena.match.referee import (
    BuiltinSeat,
    Decision,
    DecisionRequest,
    Fault,
    GameInfo,
    GameOutcome,
    Seat,
)
from arena.metrics.recorder import queue_game, record_voided

log = logging.getLogger("arena.metrics")


class _TimedSeat:
    def __init__(self, seat: Seat, observed: GameMetrics) -> None:
        self.name = seat.name
        self._seat, self._observed = seat, observed
        self._kind = "builtin" if isinstance(seat, BuiltinSeat) else "remote"

    def start(self, info: GameInfo) -> None:
        self._seat.start(info)

    def decide(self, request: DecisionRequest) -> Decision:
        started = time.perf_counter()
        decision = self._seat.decide(request)
        self._observed.decisions.append((self._kind, time.perf_counter() - started))
        if decision.fault is Fault.TIMEOUT:
            self._observed.timeouts += 1
        return decision

    def finish(self, info: GameInfo, outcome: GameOutcome) -> None:
        self._seat.finish(info, outcome)


class GameMetrics:
    """Observes one game: wrap its seats, then call `finished` or `voided`."""

    def __init__(self, client: redis.Redis, game: str) -> None:
        self._redis, self._game = client, game
        self.decisions: list[tuple[str, float]] = []
        self.timeouts = 0
        self._started = time.perf_counter()

    def wrap(self, seats: Sequence[Seat]) -> list[Seat]:
        self._started = time.perf_counter()
        return [_TimedSeat(seat, self) for seat in seats]

    def finished(self, outcome: GameOutcome, pipe: redis.client.Pipeline | None = None) -> None:
        """Record the game; with `pipe`, only queue the commands on it (the caller executes)."""
        if pipe is None:
            pipe = self._redis.pipeline(transaction=False)
            self.finished(outcome, pipe)
            try:
                pipe.execute()
            except redis.RedisError as error:
                log.warning("could not record metrics of a %s game: %s", self._game, error)
            return
        queue_game(
            pipe,
            self._game,
            outcome.result.winner,
            outcome.termination.value,
            time.perf_counter() - self._started,
            self.decisions,
            self.timeouts,
        )

    def voided(self, games: int) -> None:
        record_voided(self._redis, self._game, games)
