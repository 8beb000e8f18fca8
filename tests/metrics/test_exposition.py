"""The /metrics exposition read from Redis: parses, passes promtool, follows the ratings."""

from __future__ import annotations

import shutil
import subprocess
import urllib.request

import pytest
import redis
from prometheus_client import generate_latest

from arena.games import get_game
from arena.metrics.collector import ArenaCollector
from arena.metrics.recorder import record_job_failure
from arena.metrics.server import arena_registry, exposition, start_metrics_server
from arena.store.job_queue import arena_queue
from arena.store.ladders import LadderDefinition, LadderStore, ladder_ref
from arena.store.ratings import RatedResult, RatingStore, TableResult
from tests.metrics.helpers import populate, samples, value
from tests.store.ratings_helpers import BUILTINS, make_ladder

ALLOWED_LABELS = {
    "ladder", "game", "rules_version", "bot", "result", "termination", "seat_kind", "queue",
    "state", "le",
}  # fmt: skip


def test_the_exposition_has_every_family_with_bounded_labels(redis_client: redis.Redis) -> None:
    populate(redis_client)
    found = samples(exposition(redis_client))
    labels = {
        "ladder": "main",
        "game": "caper",
        "rules_version": str(get_game("caper").rules_version),
    }
    ladder = LadderStore(redis_client).get(ladder_ref("main"))
    greedy = RatingStore(redis_client).standing(ladder, "greedy")
    assert value(found, "arena_elo_rating", bot="greedy", **labels) == greedy.elo
    assert value(found, "arena_glicko2_rating", bot="greedy", **labels) == greedy.rating
    assert value(found, "arena_glicko2_deviation", bot="random", **labels) < 350
    assert value(found, "arena_rating_provisional", bot="random", **labels) == 1.0
    assert value(found, "arena_bot_rated_results_total", bot="greedy", **labels) == 2
    assert value(found, "arena_weng_lin_mu", bot="greedy", **labels) == greedy.mu
    assert value(found, "arena_weng_lin_sigma", bot="greedy", **labels) == greedy.sigma
    assert value(found, "arena_weng_lin_ordinal", bot="greedy", **labels) == greedy.ordinal
    assert value(found, "arena_ladder_bots", **labels) == len(BUILTINS)
    assert value(found, "arena_ladder_rated_results_total", **labels) == 3
    assert value(found, "arena_ladder_provisional_deviation", **labels) == 110
    assert value(found, "arena_games_total", result="seat0_win", termination="normal") == 1
    assert value(found, "arena_games_total", result="draw", termination="normal") == 1
    assert value(found, "arena_forfeits_total", termination="timeout") == 1
    assert value(found, "arena_decision_timeouts_total", game="caper") == 3
    assert value(found, "arena_voided_games_total", game="caper") == 2
    remote = {"game": "caper", "seat_kind": "remote"}
    assert value(found, "arena_decision_latency_seconds_count", **remote) == 3
    assert value(found, "arena_decision_latency_seconds_bucket", le="0.5", **remote) == 1
    assert value(found, "arena_decision_latency_seconds_sum", **remote) == pytest.approx(2.9)
    assert value(found, "arena_game_duration_seconds_bucket", le="+Inf", game="caper") == 3
    assert value(found, "arena_game_duration_seconds_bucket", le="10.0", game="caper") == 2
    assert value(found, "arena_registered_bots") == 2
    assert value(found, "arena_connected_bots") == 1
    assert value(found, "arena_queue_jobs", queue="arena", state="queued") == 1
    assert value(found, "arena_redis_up") == 1
    for name, items in found.items():
        assert name.startswith("arena_"), name
        for sample in items:
            assert set(sample.labels) <= ALLOWED_LABELS, sample


def test_the_exposition_passes_promtool(redis_client: redis.Redis) -> None:
    promtool = shutil.which("promtool")
    if promtool is None:  # a missing tool fails: a skip would hide an unchecked exposition
        pytest.fail("promtool is missing: `make test` installs Debian's prometheus package")
    populate(redis_client)
    checked = subprocess.run(
        [promtool, "check", "metrics"],
        input=exposition(redis_client),
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout + checked.stderr == b""  # no lint warnings either


def test_a_scrape_reflects_a_rating_change(redis_client: redis.Redis) -> None:
    ladder = make_ladder(redis_client)
    store = RatingStore(redis_client)
    store.apply(ladder, RatedResult("r0", "greedy", "random", 1.0, 0.0))
    server = start_metrics_server(redis_client, "127.0.0.1", 0)
    url = f"http://127.0.0.1:{server.port}/metrics"
    try:
        with urllib.request.urlopen(url, timeout=10) as reply:
            before = samples(reply.read())
        applied = store.apply(ladder, RatedResult("r1", "random", "greedy", 1.0, 1.0))
        assert applied is not None
        with urllib.request.urlopen(url, timeout=10) as reply:
            after = samples(reply.read())
    finally:
        server.stop()
    for bot in ("greedy", "random"):
        old = value(before, "arena_elo_rating", bot=bot)
        new = value(after, "arena_elo_rating", bot=bot)
        assert old != new and new == applied.after[bot].elo
        assert value(after, "arena_glicko2_rating", bot=bot) == applied.after[bot].rating
    assert value(after, "arena_ladder_rated_results_total", ladder="main") == 2


def test_per_bot_series_are_bounded_to_the_top_n_by_games(redis_client: redis.Redis) -> None:
    ladder = make_ladder(redis_client)
    store = RatingStore(redis_client)
    pairs = [
        ("greedy", "random"),
        ("greedy", "search#3"),
        ("greedy", "random"),
        ("random", "search@5"),
    ]
    for index, (a, b) in enumerate(pairs):
        store.apply(ladder, RatedResult(f"r{index}", a, b, 0.5, float(index)))
    found = samples(exposition(redis_client, top_n=2))
    assert {s.labels["bot"] for s in found["arena_elo_rating"]} == {"greedy", "random"}
    assert len(found["arena_glicko2_deviation"]) == 2
    assert value(found, "arena_ladder_bots", ladder="main") == 4
    assert "arena_elo_rating" not in samples(exposition(redis_client, top_n=0))
    with pytest.raises(ValueError, match="negative"):
        ArenaCollector(redis_client, top_n=-1)


def test_a_scrape_without_redis_says_so() -> None:
    client = redis.Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=1)
    found = samples(exposition(client))
    assert value(found, "arena_redis_up") == 0
    assert "arena_elo_rating" not in found


def test_worker_failures_are_counted_through_redis(redis_client: redis.Redis) -> None:
    job = arena_queue(redis_client).enqueue(
        "workers.ladder.play_ladder_match", args=("x", 1, "a", "b")
    )
    assert record_job_failure(job, RuntimeError, RuntimeError("boom"), None) is True
    record_job_failure(job, RuntimeError, RuntimeError("boom"), None)
    found = samples(exposition(redis_client))
    assert value(found, "arena_worker_failures_total", queue="arena") == 2


def test_the_fast_rendering_equals_prometheus_clients(redis_client: redis.Redis) -> None:
    populate(redis_client)
    served = samples(exposition(redis_client))
    generic = samples(generate_latest(arena_registry(redis_client)))
    volatile = {"arena_metrics_collect_duration_seconds"}
    assert served.keys() == generic.keys()
    for name in served.keys() - volatile:
        as_set = {(tuple(sorted(s.labels.items())), s.value) for s in served[name]}
        assert as_set == {(tuple(sorted(s.labels.items())), s.value) for s in generic[name]}
        assert len(as_set) == len(served[name]) == len(generic[name])


def test_a_ladder_of_tables_exports_weng_lin_but_no_elo_or_glicko(
    redis_client: redis.Redis,
) -> None:
    """Elo and Glicko-2 rate two-sided results only: a table ladder's would stay at their
    starting values forever, so they are not exported for it (both renderings agree)."""
    populate(redis_client)
    snitch = LadderDefinition(ladder_ref("snitch"), config={"city": "paris", "players": 3})
    LadderStore(redis_client).create(snitch)
    snitch = LadderStore(redis_client).get(snitch.ref)
    sides = ((("greedy",), 30.0), (("random",), 10.0), (("search#3",), 20.0))
    RatingStore(redis_client).apply(snitch, TableResult("t1", sides, 1.0))
    for text in (exposition(redis_client), generate_latest(arena_registry(redis_client))):
        found = samples(text)
        table = {"ladder": "snitch", "game": "caper"}
        assert value(found, "arena_weng_lin_ordinal", bot="greedy", **table) > value(
            found, "arena_weng_lin_ordinal", bot="random", **table
        )
        assert value(found, "arena_bot_rated_results_total", bot="search#3", **table) == 1
        for family in ("arena_elo_rating", "arena_glicko2_rating", "arena_rating_provisional"):
            ladders = {s.labels["ladder"] for s in found[family]}
            assert ladders == {"main"}, family  # the pair ladder keeps them
