"""The ladder matchmaker: rated duplicate matches of built-in (and connected) bots as RQ jobs."""

from __future__ import annotations

import subprocess
import sys

import pytest
import redis

from arena.metrics.recorder import GAMES, read_counter
from arena.services import ladders
from arena.services.ladder_runs import eligible_players, ladder_job_id
from arena.store import keys
from arena.store.bots import BotRegistry
from arena.store.job_queue import arena_queue
from arena.store.ladders import LadderDefinition, LadderError, LadderStore, ladder_ref
from arena.store.ratings import RatingStore
from arena.store.ratings.rebuild import rebuild
from workers.ladder import ladder_match_id, play_and_rate
from workers.matchmaker import Matchmaker, run_ladder

BOTS = ("random", "greedy", "search#8")


def _ladder(client: redis.Redis, remote: bool = False) -> LadderDefinition:
    definition = LadderDefinition(ladder_ref("main"), remote=remote, bots=BOTS)
    LadderStore(client).create(definition)
    return definition


def test_a_ladder_run_through_an_rq_worker_updates_ratings(redis_client: redis.Redis) -> None:
    ladder = _ladder(redis_client)
    events: list[tuple[str, str]] = []
    maker = Matchmaker(
        redis_client,
        ladder,
        concurrency=1,
        seed=4,
        listener=lambda j, p, s, r: events.append((j, s)),
    )
    summary = run_ladder(maker, max_matches=3, inline=True)
    assert (summary.enqueued, summary.finished, summary.failed) == (3, 3, 0)
    assert not summary.in_flight
    slug = ladder.ref.slug
    assert events == [
        (ladder_job_id(slug, n), status) for n in (1, 2, 3) for status in ("queued", "finished")
    ]
    store = RatingStore(redis_client)
    results = store.results(ladder)
    assert [r.result_id for r in results] == [ladder_match_id(slug, n) for n in (1, 2, 3)]
    assert all(r.games == 2 for r in results)
    board = store.leaderboard(ladder)
    assert sum(s.games for _, s in board) == 6
    assert any(s.elo != 1500 for _, s in board)
    # Every bot plays: the matchmaker gives games to those that have had fewest.
    assert {name for name, _ in board} == set(BOTS)
    games = read_counter(redis_client, GAMES)
    assert sum(games.values()) == 6
    assert redis_client.exists(keys.game_record(f"{ladder_match_id(slug, 1)}.g1"))
    assert rebuild(redis_client, ladder, write=False).identical


def test_once_pairs_the_idle_bots_a_single_time(redis_client: redis.Redis) -> None:
    ladder = _ladder(redis_client)
    LadderStore(redis_client).set_bots(ladder.ref, ["random", "greedy", "search#4", "search#6"])
    summary = run_ladder(
        Matchmaker(redis_client, ladder, concurrency=8, seed=1), once=True, inline=True
    )
    assert (summary.enqueued, summary.finished) == (2, 2)
    LadderStore(redis_client).set_bots(ladder.ref, ["random"])
    alone = run_ladder(Matchmaker(redis_client, ladder, seed=1), once=True, inline=True)
    assert alone.enqueued == 0  # one bot cannot play: nothing to wait for


def test_a_match_played_again_is_not_rated_again(redis_client: redis.Redis) -> None:
    ladder = _ladder(redis_client)
    first = play_and_rate(redis_client, ladder.ref.slug, 7, ("random", "greedy"))
    assert first["rated"] is True
    again = play_and_rate(redis_client, ladder.ref.slug, 7, ("random", "greedy"))
    assert again == {"match_id": first["match_id"], "players": ["random", "greedy"], "rated": False}
    assert len(RatingStore(redis_client).results(ladder)) == 1


def test_a_ladder_of_other_rules_is_not_played(redis_client: redis.Redis) -> None:
    old = LadderDefinition(ladder_ref("main", rules_version=0), bots=BOTS)
    LadderStore(redis_client).create(old)
    with pytest.raises(LadderError, match="rates rules v0"):
        play_and_rate(redis_client, old.ref.slug, 1, ("random", "greedy"))


def test_only_connected_registered_bots_are_eligible(redis_client: redis.Redis) -> None:
    registry = BotRegistry(redis_client)
    online, _ = registry.register("online-bot")
    registry.register("offline-bot")
    redis_client.set(keys.bot_online(online.bot_id), "session", ex=30)
    with_remote = _ladder(redis_client, remote=True)
    assert eligible_players(redis_client, with_remote) == [*BOTS, "online-bot"]
    local = LadderDefinition(ladder_ref("local"), remote=False, bots=BOTS)
    assert eligible_players(redis_client, local) == list(BOTS)


def test_ladder_jobs_run_on_a_separate_worker_process(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    ladder = _ladder(redis_client)
    maker = Matchmaker(redis_client, ladder, concurrency=1, seed=2)
    assert maker.pair_once() == 1
    assert arena_queue(redis_client).count == 1
    worker = subprocess.run(
        [sys.executable, "-m", "arena", "worker", "--burst", "--redis-url", redis_server_url],
        capture_output=True,
        timeout=180,
        check=False,
    )
    assert worker.returncode == 0, worker.stderr.decode()[-2000:]
    assert maker.reap() == 1 and maker.summary.finished == 1
    assert len(RatingStore(redis_client).results(ladder)) == 1


def test_an_inline_run_of_a_started_ladder_plays_what_its_start_queued(
    redis_client: redis.Redis,
) -> None:
    ladder = _ladder(redis_client)
    assert ladders.start(redis_client, ladder.ref) == 1  # three bots: one pair at a time
    summary = run_ladder(Matchmaker(redis_client, ladder, seed=1), max_matches=2, inline=True)
    assert (summary.enqueued, summary.finished, summary.failed) == (2, 2, 0)
    assert len(RatingStore(redis_client).results(ladder)) == 3, "the started match, then two"
    assert arena_queue(redis_client).count == 0
