"""How many boards of a round one RQ job plays: fixed when the round is first queued, so that
a retry, a resume or a liveness check finds a board's job again by the same id."""

from __future__ import annotations

import redis

from arena.store import keys


class JobSlices:
    def __init__(self, client: redis.Redis) -> None:
        self._redis = client

    def fix(self, name: str, round_number: int, size: int) -> int:
        """Keep `size` for the round unless one is kept already; the size in force."""
        key = keys.tournament_job_slices(name)
        self._redis.hsetnx(key, str(round_number), size)
        return int(self._redis.hget(key, str(round_number)) or size)

    def size(self, name: str, round_number: int) -> int:
        """Boards a job of the round plays; 1 for rounds queued before slices were kept."""
        return int(self._redis.hget(keys.tournament_job_slices(name), str(round_number)) or 1)

    def sizes(self, name: str) -> dict[int, int]:
        stored = self._redis.hgetall(keys.tournament_job_slices(name))
        return {int(number): int(size) for number, size in stored.items()}
