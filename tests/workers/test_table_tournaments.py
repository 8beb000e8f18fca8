"""Tournaments of tables of the Snitch game (3 sides, V12: duplicate tables, each deal played once
per rotation of the seats) on real worker processes and a real Redis server: Swiss pods and a
round robin of tables, exactly-once results, a worker killed mid-table."""

from __future__ import annotations

import itertools
import json
import time
from collections import Counter

import pytest
import redis
from click.testing import CliRunner
from rq.job import Job
from rq.registry import StartedJobRegistry
from rq.serializers import JSONSerializer

from arena.cli import main
from arena.services import events
from arena.store.encounters import table_encounters
from arena.store.job_queue import QUEUE_NAME
from arena.store.results import match_id
from arena.store.tournaments import Status, TournamentStore
from tests.workers.conftest import StartWorker, WorkerProcess
from tests.workers.tables import assert_standings_are_the_records
from tests.workers.tournaments import create_and_start, wait_until_over, work_in_process

pytestmark = pytest.mark.timeout(300)

NINE = ["random", "greedy", *(f"search#{n}" for n in range(2, 9))]
SLOW_FIELD = ["search#90", "greedy", "random", "search#4"]


def test_a_pod_swiss_of_nine_plays_every_table_once_and_stands_as_its_records_say(
    redis_client: redis.Redis, redis_server_url: str, start_worker: StartWorker
) -> None:
    start_worker("pods-a"), start_worker("pods-b")
    create_and_start(redis_client, "pods", "swiss", NINE, rounds=3, games_per_match=3, players=3)
    assert wait_until_over(redis_client, "pods", timeout_s=240) is Status.FINISHED
    store = table_encounters(redis_client)
    rounds, results = store.rounds("pods"), store.results("pods")
    assert [r.number for r in rounds] == [1, 2, 3]
    assert all(len(r.tables) == 3 and not r.byes for r in rounds), "9 entrants: 3 tables of 3"
    ids = [match_id("pods", r.number, b) for r in rounds for b in range(3)]
    assert sorted(results) == sorted(ids), "every table recorded"
    attempts = TournamentStore(redis_client).attempts("pods")
    assert attempts == dict.fromkeys(ids, 1), "and played exactly once"
    met = Counter(
        frozenset(pair) for t in results.values() for pair in itertools.combinations(t.entrants, 2)
    )
    assert set(met.values()) == {1}, "nine in threes: three rounds without a repeated meeting"
    assert_standings_are_the_records(redis_client, "pods")
    for table in results.values():  # a table hands out 1 + 1/2 + 0 placement points
        assert sum(table.result.points) == 1.5 and len(table.game_ids) == 3

    env = {"REDIS_URL": redis_server_url}
    status = CliRunner().invoke(main, ["tournament", "status", "pods"], env=env)
    assert "pods: finished; 9 of 9 scheduled tables played" in status.output, status.output
    shown = CliRunner().invoke(main, ["tournament", "standings", "pods"], env=env)
    assert shown.exit_code == 0 and "placement points" in shown.output, shown.output
    cross = CliRunner().invoke(main, ["tournament", "crosstable", "pods"], env=env)
    assert cross.exit_code == 0 and "greedy" in cross.output, cross.output
    exported = json.loads(events.export(redis_client, "pods", "json"))
    rows = {s["entrant"]: s for s in exported["standings"]}
    for standing in events.standings_at_tables(redis_client, "pods"):
        assert rows[standing.entrant]["points"] == standing.points
        assert rows[standing.entrant]["wins"] == standing.wins
    assert len(exported["tables"]) == 9
    csv_rows = events.export(redis_client, "pods", "csv").splitlines()
    assert csv_rows[0].startswith("rank,entrant,points,tables,wins,average_score")
    assert len(csv_rows) == 10
    trf = CliRunner().invoke(main, ["tournament", "export", "pods", "--format", "trf"], env=env)
    assert trf.exit_code == 1 and "TRF is for two-sided games" in trf.output
    assert "Traceback" not in trf.output


def test_a_round_robin_of_tables_seats_every_three_of_four_once(
    redis_client: redis.Redis, start_worker: StartWorker
) -> None:
    start_worker("rr-tables")
    field = ["random", "greedy", "search#3", "search#5"]
    create_and_start(redis_client, "rrt", "round-robin", field, games_per_match=3, players=3)
    assert wait_until_over(redis_client, "rrt", timeout_s=240) is Status.FINISHED
    store = table_encounters(redis_client)
    rounds, results = store.rounds("rrt"), store.results("rrt")
    assert len(rounds) == 4 and len(results) == 4
    assert {frozenset(t.entrants) for t in results.values()} == {
        frozenset(c) for c in itertools.combinations(field, 3)
    }
    assert sorted(e for r in rounds for e in r.byes) == sorted(field), "one bye each"
    replayed = assert_standings_are_the_records(redis_client, "rrt")
    standings = events.standings_at_tables(redis_client, "rrt")
    for row in standings:  # three tables and a bye worth 1/2
        mine = [
            p
            for r in replayed
            for e, p in zip(r.entrants, r.points, strict=True)
            if e == row.entrant
        ]
        assert row.tables == 3 and row.byes == 1 and row.points == sum(mine) + 0.5


def test_a_worker_killed_mid_table_is_replayed_exactly_once(
    redis_client: redis.Redis, start_worker: StartWorker
) -> None:
    create_and_start(redis_client, "calm", "round-robin", SLOW_FIELD, games_per_match=3, players=3)
    work_in_process(redis_client)
    assert TournamentStore(redis_client).status("calm") is Status.FINISHED

    pool = {name: start_worker(name) for name in ("t1", "t2")}
    create_and_start(redis_client, "storm", "round-robin", SLOW_FIELD, games_per_match=3, players=3)
    job = _a_table_in_progress(redis_client, pool)
    pool[str(job.worker_name)].kill()
    _, round_part, board_part = job.id.rsplit("_", 2)
    killed = match_id("storm", int(round_part[1:]), int(board_part[1:]))
    assert killed not in table_encounters(redis_client).recorded("storm"), "killed mid-table"

    assert wait_until_over(redis_client, "storm", timeout_s=240) is Status.FINISHED
    calm, storm = (
        {(t.round, t.entrants): (t.points, t.cards, t.wins, t.terminations) for t in
         table_encounters(redis_client).results(name).values()}
        for name in ("calm", "storm")
    )  # fmt: skip
    assert storm == calm, "the kill changed nothing but the time taken"
    attempts = TournamentStore(redis_client).attempts("storm")
    assert attempts.pop(killed) == 2, "the abandoned table was played again from scratch"
    assert set(attempts.values()) == {1}
    assert_standings_are_the_records(redis_client, "storm")


def _a_table_in_progress(client: redis.Redis, pool: dict[str, WorkerProcess]) -> Job:
    """A started job of one of our workers, at a table of search#90, playing for a moment."""
    registry = StartedJobRegistry(QUEUE_NAME, connection=client, serializer=JSONSerializer)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for job_id in registry.get_job_ids():
            job = Job.fetch(job_id, connection=client, serializer=JSONSerializer)
            if job.worker_name in pool and "search#90" in str(job.description or ""):
                time.sleep(0.5)
                return job
        time.sleep(0.05)
    raise AssertionError("no table of search#90 started within a minute")
