"""What the referee's games feed to the metrics: per-decision latency, timeouts, the result.

The referee clocks every decision (its time control needs it) and hands the times over with the
outcome: timing each decision again in a wrapper would add work to every move. The whole match
is written to Redis in batches (`MatchMetrics`).
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Sequence

import redis

from arena.hosted.seat import ProgramSeat, UnplayableSeat
from arena.metrics.recorder import queue_game, queue_games, queue_timings, record_voided
from arena.referee.referee import BuiltinSeat, GameOutcome, Seat

log = logging.getLogger("arena.metrics")


class GameMetrics:
    """Observes one game: `wrap` its seats before it starts, then call `finished` or `voided`."""

    def __init__(self, client: redis.Redis, game: str) -> None:
        self._redis, self._game = client, game
        self._kinds: list[str] = []
        self._started = time.perf_counter()

    def wrap(self, seats: Sequence[Seat]) -> list[Seat]:
        """The seats to play with (as given: only their kinds are noted), and the game's start."""
        self._started = time.perf_counter()
        self._kinds = [_kind(seat) for seat in seats]
        return list(seats)

    def decisions(self, outcome: GameOutcome) -> list[tuple[str, float]]:
        """(seat kind, seconds) of each decision of the game."""
        return [
            (kind, ms / 1000)
            for kind, times in zip(self._kinds, outcome.latencies_ms, strict=True)
            for ms in times
        ]

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
            self.decisions(outcome),
            sum(outcome.timeouts),
        )

    def voided(self, games: int) -> None:
        record_voided(self._redis, self._game, games)

    def add_to(self, tally: MatchMetrics, outcome: GameOutcome) -> None:
        """Record the game in the match's `tally` rather than in Redis."""
        duration_s = time.perf_counter() - self._started
        tally.add(outcome, duration_s, self.decisions(outcome), sum(outcome.timeouts))


class MatchMetrics:
    """The metrics of a match's games, added up in memory and queued once per batch of games:
    written game by game they took some twenty commands each, more than the game's record."""

    def __init__(self, game: str) -> None:
        self._game = game
        self._reset()

    def _reset(self) -> None:
        self._games: Counter[tuple[int | None, str]] = Counter()
        self._durations: list[float] = []
        self._decisions: list[tuple[str, float]] = []
        self._timeouts = 0

    def add(
        self,
        outcome: GameOutcome,
        duration_s: float,
        decisions: Sequence[tuple[str, float]],
        timeouts: int,
    ) -> None:
        self._games[outcome.result.winner, outcome.termination.value] += 1
        self._durations.append(duration_s)
        self._decisions += decisions
        self._timeouts += timeouts

    def queue(self, pipe: redis.client.Pipeline) -> None:
        """Queue what was added since the last call on `pipe` (the caller executes it)."""
        for (winner, termination), count in sorted(self._games.items(), key=str):
            queue_games(pipe, self._game, winner, termination, count)
        queue_timings(pipe, self._game, self._durations, self._decisions, self._timeouts)
        self._reset()


def _kind(seat: Seat) -> str:
    """How a seat is played: by a built-in bot, a hosted bot's program the arena runs, or a
    remote bot over the gateway."""
    if isinstance(seat, BuiltinSeat):
        return "builtin"
    return "hosted" if isinstance(seat, ProgramSeat | UnplayableSeat) else "remote"
