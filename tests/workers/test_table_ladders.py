"""Ladders of tables (the Snitch game, V12) and of team games (V11) played by real worker
processes on a real Redis server, a remote bot through a real gateway included."""

from __future__ import annotations

import time

import pytest
import redis
from click.testing import CliRunner
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer

from arena.cli import main
from arena.games.api import Config
from arena.gateway.testing import running_arena
from arena.services.ladder_runs import DONE, ladder_job_id
from arena.store.ladders import LadderDefinition, LadderStore, ladder_ref
from arena.store.ratings import RatedResult, RatingStore, TableResult
from arena.store.ratings.rebuild import rebuild
from tests.gateway.rawbot import RawBot
from tests.workers.conftest import StartWorker
from workers.ladder import enqueue_ladder_match, ladder_match_id
from workers.matchmaker import Matchmaker, run_ladder

pytestmark = pytest.mark.timeout(300)

SNITCH: Config = {"city": "paris", "players": 3}
TEAMS: Config = {"city": "paris", "players": 4}
SNITCH_BOTS = ("random", "greedy", "search#4", "search#6", "random/2", "greedy/2")


def _wait_for_job(client: redis.Redis, job_id: str, timeout_s: float = 120) -> Job:
    deadline = time.monotonic() + timeout_s
    job = Job.fetch(job_id, connection=client, serializer=JSONSerializer)
    while job.get_status() not in DONE and time.monotonic() < deadline:
        time.sleep(0.1)
    return job


def _show(url: str, *args: str) -> str:
    result = CliRunner().invoke(main, ["ladder", *args, "--redis-url", url])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_table_ladder_run_on_workers_rates_each_table_once_and_rebuilds_identically(
    redis_client: redis.Redis, redis_server_url: str, start_worker: StartWorker
) -> None:
    start_worker("tables-a"), start_worker("tables-b")
    ladder = LadderDefinition(ladder_ref("snitch"), config=SNITCH, remote=False, bots=SNITCH_BOTS)
    LadderStore(redis_client).create(ladder)
    maker = Matchmaker(redis_client, ladder, concurrency=2, seed=5)
    summary = run_ladder(maker, max_matches=4, poll_s=0.1)
    assert (summary.enqueued, summary.finished, summary.failed) == (4, 4, 0)
    store = RatingStore(redis_client)
    results = store.results(ladder)
    slug = ladder.ref.slug
    assert sorted(r.result_id for r in results) == [ladder_match_id(slug, n) for n in (1, 2, 3, 4)]
    assert all(isinstance(r, TableResult) and len(r.sides) == 3 for r in results)
    board = store.leaderboard(ladder, "ordinal")
    assert sum(s.games for _, s in board) == 12  # 4 tables of 3, each rated once
    shown = _show(redis_server_url, "show", "snitch", "--by", "ordinal")
    first = results[0]
    history = _show(redis_server_url, "history", "snitch", first.players[0])
    # The first table's job runs again (a retry, a re-enqueue): nothing is rated twice.
    job_id = enqueue_ladder_match(redis_client, ladder, 1, first.players)
    assert job_id == ladder_job_id(slug, 1)
    job = _wait_for_job(redis_client, job_id)
    assert job.get_status() is JobStatus.FINISHED
    assert job.return_value() == {
        "match_id": first.result_id,
        "players": list(first.players),
        "rated": False,
    }
    assert len(store.results(ladder)) == 4
    assert dict(store.leaderboard(ladder, "ordinal")) == dict(board)
    # `ladder rebuild` replays the log: the same ratings, byte for byte, in the same order.
    assert rebuild(redis_client, ladder, write=True).identical
    assert _show(redis_server_url, "show", "snitch", "--by", "ordinal") == shown
    assert _show(redis_server_url, "show", "snitch") == shown  # ordinal: a table's default
    assert _show(redis_server_url, "history", "snitch", first.players[0]) == history


def test_a_team_ladder_runs_on_a_worker(
    redis_client: redis.Redis, start_worker: StartWorker
) -> None:
    start_worker("teams")
    bots = ("random", "greedy", "search#4")
    ladder = LadderDefinition(ladder_ref("teams"), config=TEAMS, remote=False, bots=bots)
    LadderStore(redis_client).create(ladder)
    summary = run_ladder(Matchmaker(redis_client, ladder, seed=1), max_matches=3, poll_s=0.1)
    assert (summary.enqueued, summary.finished, summary.failed) == (3, 3, 0)
    store = RatingStore(redis_client)
    results = store.results(ladder)
    assert len(results) == 3 and all(isinstance(r, RatedResult) for r in results)
    board = dict(store.leaderboard(ladder))
    assert sum(s.games for s in board.values()) == 6
    assert any(s.elo != 1500 for s in board.values())  # a team pair moves Elo ...
    assert any(s.mu != 25 for s in board.values())  # ... and Weng-Lin
    assert rebuild(redis_client, ladder, write=False).identical


def test_a_connected_remote_bot_takes_its_seat_at_a_table(
    redis_client: redis.Redis, redis_server_url: str, start_worker: StartWorker
) -> None:
    start_worker("remote-table")
    with running_arena(redis_server_url) as arena:
        bot = RawBot(arena.target, arena.register_bot("visitor")).start()
        assert bot.welcomed.wait(10), bot.error
        ladder = LadderDefinition(ladder_ref("snitch"), config=SNITCH, bots=("random", "greedy"))
        LadderStore(redis_client).create(ladder)
        summary = run_ladder(Matchmaker(redis_client, ladder, seed=1), max_matches=1, poll_s=0.1)
        assert (summary.finished, summary.failed) == (1, 0)
        (result,) = RatingStore(redis_client).results(ladder)
        assert isinstance(result, TableResult)
        assert sorted(result.players) == ["greedy", "random", "visitor"]
        started = [m.game_started for m in bot.of_kind("game_started")]
        assert sorted(s.seat for s in started) == [0, 1, 2]  # V12: every seat of the deal once
        bot.close()
    assert RatingStore(redis_client).standing(ladder, "visitor").games == 1
