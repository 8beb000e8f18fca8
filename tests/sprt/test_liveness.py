"""A running SPRT always has its unplayed pairs queued or in play: `arena sprt status` queues
again a batch whose job is gone, and stops the test, saying why, if a job ended unplayed."""

from __future__ import annotations

import time

import pytest
import redis
from click.testing import CliRunner
from rq import SimpleWorker
from rq.job import Job
from rq.serializers import JSONSerializer

from arena.cli import main
from arena.services.sprt_runs import MISSING_GRACE_S, batch_job_id, play_batch, settle, start
from arena.store.job_queue import QUEUE_NAME, arena_queue
from arena.store.sprt import SprtDefinition, SprtStore, State

WIDE = SprtDefinition("live", "greedy", "random", elo0=0.0, elo1=50.0, batch_pairs=2, parallel=2)


def _work(client: redis.Redis) -> None:
    SimpleWorker([QUEUE_NAME], connection=client, serializer=JSONSerializer).work(burst=True)


def test_a_batch_whose_job_is_gone_is_queued_again(
    redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    start(redis_client, WIDE)
    Job.fetch(batch_job_id("live", 1), redis_client, serializer=JSONSerializer).delete()
    assert arena_queue(redis_client).job_ids == [batch_job_id("live", 0)]
    assert settle(redis_client, "live") == {"missing": 1, "queued": 1}, "it may be on its way"
    later = time.time() + MISSING_GRACE_S
    monkeypatch.setattr(time, "time", lambda: later)
    assert settle(redis_client, "live") == {"queued again": 1, "queued": 1}
    assert sorted(arena_queue(redis_client).job_ids) == [batch_job_id("live", b) for b in (0, 1)]
    _work(redis_client)
    assert SprtStore(redis_client).status("live").state is State.ACCEPTED_H1


def test_a_cancelled_batch_stops_the_test_with_the_reason(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    start(redis_client, WIDE)
    Job.fetch(batch_job_id("live", 0), redis_client, serializer=JSONSerializer).cancel()
    out = CliRunner().invoke(main, ["sprt", "status", "live"], env={"REDIS_URL": redis_server_url})
    assert "live: stopped (batch 0 ended unplayed: its job was canceled)" in out.output, out.output
    assert arena_queue(redis_client).count == 0, "the other batch is taken off the queue"


def test_status_counts_the_batches_of_a_running_test(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    start(redis_client, WIDE)
    out = CliRunner().invoke(main, ["sprt", "status", "live"], env={"REDIS_URL": redis_server_url})
    assert "batches: queued 2" in out.output, out.output


def test_a_retried_batch_adds_one_history_point_per_pair_it_counts(
    redis_client: redis.Redis,
) -> None:
    definition = SprtDefinition("again", "greedy", "random", elo0=0.0, elo1=1.0, batch_pairs=3)
    store = SprtStore(redis_client)
    store.create(definition)
    store.apply_pair("again", 0, 2)  # the batch's first attempt counted pair 0, then failed
    counted = play_batch(redis_client, "again", 0)["counted"]
    assert counted == [1, 2]
    assert play_batch(redis_client, "again", 0)["counted"] == [], "a third attempt counts nothing"
    assert [p.pairs for p in store.history("again")] == [1, 2, 3]
