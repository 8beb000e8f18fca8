"""A running tournament of tables (the Snitch game, V12) always has its unplayed tables queued or
in play, as a tournament of matches does: a lost job is queued again, a cancelled one stops the
tournament with the reason, a table failing every attempt stops it and `resume` goes on."""

from __future__ import annotations

import time

import pytest
import redis
from click.testing import CliRunner
from rq.job import Job
from rq.serializers import JSONSerializer

from arena.cli import main
from arena.services import event_liveness, event_runs
from arena.store.encounters import table_encounters
from arena.store.job_queue import arena_queue
from arena.store.tournaments import Status, TournamentStore
from tests.workers.tournaments import create_and_start, work_in_process

pytestmark = pytest.mark.timeout(300)

FOUR = ["random", "greedy", "search#3", "search#4"]  # a round robin of 4 tables, one a round


def _create(client: redis.Redis, name: str) -> None:
    create_and_start(client, name, "round-robin", FOUR, games_per_match=3, players=3)


def test_a_table_whose_job_is_gone_is_queued_again(
    redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    _create(redis_client, "lost-t")
    queue = arena_queue(redis_client)
    victim = queue.job_ids[0]
    Job.fetch(victim, redis_client, serializer=JSONSerializer).delete()  # as a lossy Redis would
    work_in_process(redis_client)
    store = table_encounters(redis_client)
    assert TournamentStore(redis_client).status("lost-t") is Status.RUNNING
    assert len(store.recorded("lost-t")) == 3
    event_liveness.check(redis_client, "lost-t")
    assert queue.count == 0, "a job missing for a moment may be a round being queued"
    later = time.time() + event_liveness.MISSING_GRACE_S
    monkeypatch.setattr(time, "time", lambda: later)
    event_liveness.check(redis_client, "lost-t")
    assert queue.job_ids == [victim]
    work_in_process(redis_client)
    assert TournamentStore(redis_client).status("lost-t") is Status.FINISHED
    assert len(store.recorded("lost-t")) == 4


def test_a_cancelled_table_job_stops_the_tournament_with_the_reason(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    _create(redis_client, "cancelled-t")
    env = {"REDIS_URL": redis_server_url}
    out = CliRunner().invoke(main, ["tournament", "status", "cancelled-t"], env=env)
    assert "cancelled-t: running" in out.output and "queued: 4" in out.output, out.output
    victim = arena_queue(redis_client).job_ids[1]
    Job.fetch(victim, redis_client, serializer=JSONSerializer).cancel()
    work_in_process(redis_client)
    out = CliRunner().invoke(main, ["tournament", "status", "cancelled-t"], env=env)
    assert "cancelled-t: stopped" in out.output, out.output
    assert "ended unplayed: its job was canceled" in out.output.replace("\n", " ")


def test_a_table_that_fails_every_attempt_stops_the_tournament_until_resumed(
    redis_client: redis.Redis, redis_server_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    attempts: list[str] = []

    def broken(client: redis.Redis, definition: object, the_id: str, *rest: object) -> None:
        attempts.append(the_id)
        raise RuntimeError("the referee fell over")

    monkeypatch.setattr(event_runs, "_play", broken)
    create_and_start(
        redis_client, "doomed-t", "swiss", FOUR, rounds=1, games_per_match=3, players=3
    )
    work_in_process(redis_client)
    store = TournamentStore(redis_client)
    assert attempts == ["doomed-t.r1.b0"] * 4, "the first run and three retries"
    assert store.status("doomed-t") is Status.STOPPED
    assert "doomed-t.r1.b0 failed on every attempt" in store.reason("doomed-t")
    assert table_encounters(redis_client).recorded("doomed-t") == set(), "nothing is scored for it"

    monkeypatch.undo()
    env = {"REDIS_URL": redis_server_url}
    out = CliRunner().invoke(main, ["tournament", "resume", "doomed-t"], env=env)
    assert "1 unplayed matches queued again" in out.output, out.output
    work_in_process(redis_client)
    assert store.status("doomed-t") is Status.FINISHED
    assert table_encounters(redis_client).recorded("doomed-t") == {"doomed-t.r1.b0"}
