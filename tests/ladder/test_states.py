"""A ladder's state against a real Redis: created, running once its matchmaker runs, stopped
by its organiser (nothing more paired or played, its ratings kept) until resumed; every command
that does not fit is refused in one line naming the state."""

from __future__ import annotations

import pytest
import redis

from arena.store import keys
from arena.store.job_queue import arena_queue
from arena.store.ladders import LadderDefinition, LadderStore, ladder_ref
from arena.store.ratings import RatingStore
from arena.tournament.lifecycle import Command, LifecycleError, State
from tests.cli.refusals import arena, refused
from workers.ladder import enqueue_ladder_match, next_match_number
from workers.matchmaker import Matchmaker, run_ladder, work_inline

LAD = "ladder lad (caper rules v1)"


def _ladder(client: redis.Redis) -> LadderDefinition:
    definition = LadderDefinition(ladder_ref("lad"), remote=False, bots=("random", "greedy"))
    LadderStore(client).create(definition)
    return definition


def test_stop_and_resume_a_ladder_and_every_refusal_on_the_way(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    ladder, store, url = _ladder(redis_client), LadderStore(redis_client), redis_server_url
    assert store.state(ladder.ref) is State.CREATED
    refused(url, f"{LAD} is created (0 rated results); it has not started; nothing to stop",
            "ladder", "stop", "lad")  # fmt: skip
    refused(url, f"{LAD} is created (0 rated results); it has not started; start it instead",
            "ladder", "resume", "lad")  # fmt: skip
    run = arena(url, "ladder", "run", "lad", "--max-matches", "1", "--inline")
    assert run.exit_code == 0 and "1 matches: 1 played" in run.output, run.output
    assert store.state(ladder.ref) is State.RUNNING
    out = arena(url, "ladder", "stop", "lad")
    assert out.exit_code == 0 and f"Ladder {ladder.ref} stopped" in out.output, out.output
    stopped = f"{LAD} is stopped (1 rated result; the organiser stopped it); "
    refused(url, stopped + "it is stopped already", "ladder", "stop", "lad")
    refused(url, stopped + "resume it to go on", "ladder", "run", "lad", "--inline")
    assert arena_queue(redis_client).count == 0, "a refused run queues nothing"
    assert "stopped" in arena(url, "ladder", "list").output
    assert "running again" in arena(url, "ladder", "resume", "lad").output
    refused(url, f"{LAD} is running (1 rated result); nothing to resume",
            "ladder", "resume", "lad")  # fmt: skip
    assert RatingStore(redis_client).results(ladder), "its ratings stayed"


def test_start_a_ladder_on_the_workers_and_every_refusal(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    ladder, url = _ladder(redis_client), redis_server_url
    refused(url, "concurrency must be at least 1, not 0",
            "ladder", "start", "lad", "--concurrency", "0")  # fmt: skip
    refused(url, "unknown ladder", "ladder", "start", "ghost")
    out = arena(url, "ladder", "start", "lad", "--concurrency", "3")
    assert out.exit_code == 0, out.output
    assert f"Ladder {ladder.ref} started: the workers" in out.output
    assert "1 match(es) queued now" in out.output  # two bots: one pair
    assert LadderStore(redis_client).state(ladder.ref) is State.RUNNING
    assert redis_client.hget(keys.ladder(ladder.ref.slug), "concurrency") == b"3"
    refused(url, f"{LAD} is running (0 rated results); it has started already",
            "ladder", "start", "lad")  # fmt: skip
    arena(url, "ladder", "stop", "lad")
    refused(url, f"{LAD} is stopped (0 rated results; the organiser stopped it); resume it "
            "to go on", "ladder", "start", "lad")  # fmt: skip
    assert arena_queue(redis_client).count == 1, "refused starts queue nothing"


def test_a_stopped_ladders_queued_match_plays_nothing_and_its_matchmaker_stops(
    redis_client: redis.Redis,
) -> None:
    ladder, store = _ladder(redis_client), LadderStore(redis_client)
    store.transition(ladder.ref, Command.RUN)
    number = next_match_number(redis_client, ladder)
    job_id = enqueue_ladder_match(redis_client, ladder, number, ("random", "greedy"))
    store.transition(ladder.ref, Command.STOP, "the organiser stopped it")
    work_inline(redis_client)
    job = arena_queue(redis_client).fetch_job(job_id)
    assert job is not None and job.return_value() == {
        "match_id": f"{ladder.ref.slug}.m{number}",
        "players": ["random", "greedy"],
        "rated": False,
        "stopped": True,
    }
    assert RatingStore(redis_client).results(ladder) == []
    maker = Matchmaker(redis_client, ladder, seed=1)
    assert maker.pair_once() == 0 and maker.summary.enqueued == 0
    with pytest.raises(LifecycleError, match="resume it to go on"):
        run_ladder(maker, max_matches=1, inline=True)


def test_a_ladder_stored_without_a_state_gets_one_from_its_results(
    redis_client: redis.Redis,
) -> None:
    played, fresh = _ladder(redis_client), LadderDefinition(ladder_ref("fresh"))
    store = LadderStore(redis_client)
    store.create(fresh)
    run_ladder(Matchmaker(redis_client, played, seed=1), max_matches=1, inline=True)
    for ladder in (played, fresh):
        redis_client.hdel(keys.ladder(ladder.ref.slug), "state")
    assert store.state(played.ref) is State.RUNNING and store.state(fresh.ref) is State.CREATED
    assert redis_client.hget(keys.ladder(played.ref.slug), "state") == b"running", "stored"
