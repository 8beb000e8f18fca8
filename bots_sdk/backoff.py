"""Reconnect delays: exponential, capped, with jitter so that many bots cut off by the same
gateway restart do not all come back in the same instant."""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Backoff:
    initial_s: float = 0.5
    maximum_s: float = 30.0
    multiplier: float = 2.0
    jitter: float = 0.5  # each delay is drawn from [base * (1 - jitter), base]
    # A session that got its Welcome and lasted this long was healthy: the next failure starts
    # again from `initial_s`. Shorter ones keep growing the delay, so a gateway that accepts and
    # then drops every connection is not hammered.
    reset_after_s: float = 5.0

    def __post_init__(self) -> None:
        if not 0 < self.initial_s <= self.maximum_s:
            raise ValueError("need 0 < initial_s <= maximum_s")
        if not 1 <= self.multiplier <= 16:
            raise ValueError("multiplier must be within [1, 16]")
        if not 0 <= self.jitter <= 1:
            raise ValueError("jitter must be within [0, 1]")

    def base(self, attempt: int) -> float:
        """The delay before retry number `attempt` (from 0), before jitter."""
        # Past 64 doublings every useful schedule has long reached its cap; capping the exponent
        # keeps `multiplier ** attempt` from overflowing a float after days of retries.
        return min(self.maximum_s, self.initial_s * self.multiplier ** min(attempt, 64))

    def delay(self, attempt: int, rng: random.Random) -> float:
        return self.base(attempt) * (1 - self.jitter * rng.random())
