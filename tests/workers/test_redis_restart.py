"""Workers ride out a Redis restart: they wait, log one line, and finish the tournament."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import redis

from arena.store.tournaments import Status, TournamentStore
from tests.workers.conftest import StartWorker
from tests.workers.redis_server import restartable_redis
from tests.workers.tournaments import create_and_start, wait_until_over

pytestmark = pytest.mark.timeout(400)

FIELD = ["search#40", "search#30", "greedy", "random", "search#20"]
DOWN_S = 6  # longer than the 5 s that used to stop every worker


def test_workers_ride_out_a_redis_restart_and_finish_the_tournament(
    tmp_path: Path, start_worker: StartWorker
) -> None:
    with restartable_redis(tmp_path) as server:
        client = redis.Redis.from_url(server.url)
        create_and_start(client, "outage", "round-robin", FIELD, games_per_match=4)
        pool = [start_worker(f"outage-{n}", server.url) for n in range(2)]
        store = TournamentStore(client)
        deadline = time.monotonic() + 120
        while not store.results("outage"):  # under way: the outage falls mid-tournament
            assert time.monotonic() < deadline, pool[0].output()
            time.sleep(0.1)

        server.kill()
        time.sleep(DOWN_S)  # the outage itself: nothing to poll while Redis is away
        assert all(w.process.poll() is None for w in pool), "a worker exited with Redis down"
        server.start()

        status = wait_until_over(client, "outage", timeout_s=300)
        assert status is Status.FINISHED, store.reason("outage")
        assert len(store.results("outage")) == 10
        for worker in pool:
            assert worker.process.poll() is None, f"{worker.name} exited:\n{worker.output()}"
            log = worker.output()
            assert "quitting" not in log and "Traceback" not in log, log
            lost = log.count("Redis unreachable")
            # one line from the worker; one more from a match in hand at the time of the kill
            assert 1 <= lost <= 2, log
        for worker in pool:  # while their Redis is still up
            worker.ask_to_stop()
        for worker in pool:
            worker.wait_stopped()
