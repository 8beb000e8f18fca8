"""Riding out a Redis restart: clients for long-running processes (workers, the exporter).

redis-py already reconnects and retries a failed command with backoff; its default gives up after
three tries, well inside a restart, and the process dies. `connect_patiently` retries for as long
as asked (for ever by default) and logs one line when Redis goes away and one when it is back,
however many connections and commands wait meanwhile.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import redis
from redis.backoff import ExponentialWithJitterBackoff
from redis.retry import Retry

log = logging.getLogger("arena.redis")

T = TypeVar("T")

BACKOFF_BASE_S = 0.05
BACKOFF_CAP_S = 2.0


class PatientRetry(Retry):
    """Retry connection errors with capped exponential backoff, for `patience_s` (None: for
    ever). One object serves every connection of a client, so an outage is logged once."""

    def __init__(self, patience_s: float | None = None) -> None:
        super().__init__(ExponentialWithJitterBackoff(BACKOFF_CAP_S, BACKOFF_BASE_S), -1)
        self.patience_s = patience_s
        self._lost_at: float | None = None
        self._lock = threading.Lock()

    def __deepcopy__(self, memo: dict[int, Any]) -> PatientRetry:
        return self  # redis-py copies the policy into each connection; the outage is shared

    def call_with_retry(
        self,
        do: Callable[[], T],
        fail: Callable[..., Any],
        is_retryable: Callable[[Exception], bool] | None = None,
        with_failure_count: bool = False,
    ) -> T:
        first_failure: float | None = None

        def failed(error: Exception, *count: int) -> None:
            nonlocal first_failure
            fail(error, *count)
            now = time.monotonic()
            if first_failure is None:  # a pooled connection's first use after a restart
                first_failure = now
                return
            self._lost(error)
            if self.patience_s is not None and now - first_failure > self.patience_s:
                raise error

        result = super().call_with_retry(do, failed, is_retryable, with_failure_count)
        if first_failure is not None:
            self._back()
        return result

    def _lost(self, error: Exception) -> None:
        with self._lock:
            if self._lost_at is None:
                self._lost_at = time.monotonic()
                log.warning("Redis unreachable (%s); retrying with backoff", error)

    def _back(self) -> None:
        with self._lock:
            if self._lost_at is not None:
                log.warning("Redis is back after %.1f s", time.monotonic() - self._lost_at)
                self._lost_at = None


def connect_patiently(url: str, patience_s: float | None = None) -> redis.Redis:
    """A client whose commands wait out a Redis outage of up to `patience_s` (None: any)."""
    return redis.Redis.from_url(url, retry=PatientRetry(patience_s))
