"""`arena sprt start|status|list|stop`: what an organiser types and reads, bad input included."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import redis
from click.testing import CliRunner, Result
from rq import SimpleWorker
from rq.serializers import JSONSerializer

from arena.cli import main
from arena.store.bots import BotRegistry
from arena.store.job_queue import QUEUE_NAME, arena_queue
from arena.store.sprt import SprtStore, State

GREEDY_VS_RANDOM = ["--test", "greedy", "--base", "random", "--elo0", "0", "--elo1", "50"]


Invoke = Callable[..., Result]


@pytest.fixture
def run(redis_client: redis.Redis, redis_server_url: str) -> Invoke:
    """`arena sprt ARGS` on the session's Redis, emptied for the test."""

    def invoke(*args: str) -> Result:
        return CliRunner().invoke(main, ["sprt", *args], env={"REDIS_URL": redis_server_url})

    return invoke


def _fails_cleanly(result: Result, message: str) -> None:
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), "a ClickException, not a traceback"
    assert message in result.output.replace("\n", " "), result.output


def test_start_queues_batches_and_status_tells_the_model(
    run: Invoke, redis_client: redis.Redis
) -> None:
    started = run("start", "gr", *GREEDY_VS_RANDOM, "--batch-pairs", "2", "--parallel", "3")
    assert started.exit_code == 0, started.output
    assert "normalised Elo" in started.output and "-2.944, 2.944" in started.output
    assert len(arena_queue(redis_client).job_ids) == 3
    status = run("status", "gr")
    assert status.exit_code == 0, status.output
    for text in (
        "gr: running",
        "greedy (test) vs random (base), caper (city paris)",
        "Elo model: normalised Elo; H0 elo 0, H1 elo 50",
        "LLR 0.000 (lower bound -2.944, upper bound 2.944)",
        "pairs 0; pentanomial [LL, LD+DL, WL+DD+LW, WD+DW, WW] = [0, 0, 0, 0, 0]",
    ):
        assert text in status.output, status.output


def test_a_test_played_to_the_end_shows_its_figures(run: Invoke, redis_client: redis.Redis) -> None:
    args = ["--test", "greedy", "--base", "random", "--elo0", "-10", "--elo1", "10"]
    args += ["--seed", "1"]  # the deals whose 6 pairs greedy sweeps (a fresh seed may not)
    assert run("start", "few", *args, "--max-pairs", "6", "--logistic").exit_code == 0
    SimpleWorker([QUEUE_NAME], connection=redis_client, serializer=JSONSerializer).work(burst=True)
    status = run("status", "few")
    assert "few: capped" in status.output, status.output
    assert "pairs 6 of at most 6" in status.output
    assert "Elo model: logistic Elo" in status.output
    shown = " ".join(status.output.split())  # 6 swept pairs: a bound, not "inf"
    assert "Elo estimate (logistic Elo, test minus base): at least 28.4 (95% lower bound" in shown
    listed = run("list")
    assert "few" in listed.output and "capped" in listed.output and "logistic" in listed.output


def test_stop_takes_the_queued_batches_off_the_queue_and_resume_queues_them_again(
    run: Invoke, redis_client: redis.Redis
) -> None:
    assert run("start", "halt", *GREEDY_VS_RANDOM).exit_code == 0
    stopped = run("stop", "halt")
    assert stopped.exit_code == 0 and "4 queued batches taken off" in stopped.output
    assert arena_queue(redis_client).count == 0
    assert SprtStore(redis_client).status("halt").state is State.STOPPED
    _fails_cleanly(
        run("stop", "halt"),
        "SPRT halt is stopped (0 pairs, LLR 0.000; stopped by the organiser); it is stopped already",
    )
    assert "halt: stopped (stopped by the organiser)" in run("status", "halt").output
    resumed = run("resume", "halt")
    assert resumed.exit_code == 0 and "SPRT halt resumed; 4 batches queued" in resumed.output
    assert arena_queue(redis_client).count == 4
    assert SprtStore(redis_client).status("halt").state is State.RUNNING
    _fails_cleanly(run("resume", "halt"), "SPRT halt is running (0 pairs, LLR 0.000); nothing to")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--test", "nobot", "--base", "random"], "unknown player 'nobot'"),
        (["--test", "greedy", "--base", "search@fast"], "search@fast"),
        ([*GREEDY_VS_RANDOM[:4], "--elo0", "5", "--elo1", "5"], "need finite elo0 < elo1"),
        ([*GREEDY_VS_RANDOM[:4], "--elo0", "9", "--elo1", "2"], "need finite elo0 < elo1"),
        ([*GREEDY_VS_RANDOM, "--alpha", "0"], "alpha must lie strictly between 0 and 1"),
        ([*GREEDY_VS_RANDOM, "--beta", "1.5"], "beta must lie strictly between 0 and 1"),
        (["--test", "greedy", "--base", "greedy"], "the test and base bots must differ"),
        ([*GREEDY_VS_RANDOM, "--city", "atlantis"], "atlantis"),
        ([*GREEDY_VS_RANDOM, "--game", "chess"], "unknown game 'chess'"),
    ],
)
def test_bad_input_gives_one_clear_line(run: Invoke, args: list[str], message: str) -> None:
    _fails_cleanly(run("start", "bad", *args), message)


def test_a_registered_bot_must_be_connected(run: Invoke, redis_client: redis.Redis) -> None:
    BotRegistry(redis_client).register("mybot")
    _fails_cleanly(
        run("start", "remote", "--test", "mybot", "--base", "random"), "bot mybot is not connected"
    )


def test_names_are_unique_and_unknown_names_are_named(
    run: Invoke, redis_client: redis.Redis
) -> None:
    assert run("start", "once", *GREEDY_VS_RANDOM).exit_code == 0
    _fails_cleanly(
        run("start", "once", *GREEDY_VS_RANDOM),
        "SPRT once is running (0 pairs, LLR 0.000); it has started already",
    )
    _fails_cleanly(run("stop", "twice"), "unknown SPRT 'twice'; known SPRTs: once")
    _fails_cleanly(run("status", "twice"), "unknown SPRT 'twice'")
    _fails_cleanly(CliRunner().invoke(main, ["sprt", "list"], env={"REDIS_URL": ""}), "no Redis")


def test_each_test_gets_a_fresh_seed_unless_one_is_given(
    run: Invoke, redis_client: redis.Redis
) -> None:
    """Two tests of the same pair on one seed would replay the same deals: no new evidence."""
    for name in ("one", "two"):
        assert run("start", name, *GREEDY_VS_RANDOM).exit_code == 0
    store = SprtStore(redis_client)
    assert store.get("one").seed != store.get("two").seed
    given = run("start", "three", *GREEDY_VS_RANDOM, "--seed", "5")
    assert "seed 5" in given.output and store.get("three").seed == 5
