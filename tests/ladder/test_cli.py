"""`arena ladder ...`, `arena metrics` / `arena serve --metrics-port` and `arena bench ratings`."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
import redis
from click.testing import CliRunner, Result

from arena.cli import main
from arena.store.ladders import LadderDefinition, LadderStore, ladder_ref
from arena.store.ratings import RatingStore, TableResult


def arena(url: str, *args: str) -> Result:
    return CliRunner().invoke(main, [*args, "--redis-url", url], catch_exceptions=False)


def one_line_error(result: Result, expected: str) -> None:
    assert result.exit_code == 1, result.output
    assert expected in result.output, result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1, result.output


def test_create_run_show_history_rebuild(redis_client: redis.Redis, redis_server_url: str) -> None:
    url = redis_server_url
    created = arena(url, "ladder", "create", "main", "--bots", "random,greedy", "--k", "24")
    assert created.exit_code == 0 and "K=24" in created.output
    ran = arena(url, "ladder", "run", "main", "--max-matches", "2", "--inline", "--seed", "1")
    assert ran.exit_code == 0, ran.output
    assert "2 matches: 2 played, 0 failed" in ran.output and "Elo" in ran.output
    shown = arena(url, "ladder", "show", "main")
    assert shown.exit_code == 0
    for text in ("Glicko-2", "W-D-L", "win%", "greedy", "random", "provisional"):
        assert text in shown.output
    # The count column counts rated matches (a duplicate pair of games each): said so.
    assert "games" not in shown.output.splitlines()[2]
    assert "matches" in shown.output.splitlines()[2]
    assert "matches = rated matches of 2 games each" in " ".join(shown.output.split())
    history = arena(url, "ladder", "history", "main", "greedy")
    assert history.exit_code == 0 and "random" in history.output
    listed = arena(url, "ladder", "list")
    assert "main" in listed.output and "random, greedy" in listed.output
    check = arena(url, "ladder", "rebuild", "main", "--check")
    assert check.exit_code == 0 and "identical" in check.output and "2 results" in check.output
    rebuilt = arena(url, "ladder", "rebuild", "main")
    assert rebuilt.exit_code == 0 and "rebuilt" in rebuilt.output
    bots = arena(url, "ladder", "bots", "main", "search#5,greedy")
    assert bots.exit_code == 0 and "search#5, greedy" in bots.output


def test_show_prints_the_weng_lin_ordinal_of_a_table_ladder(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    snitch = LadderDefinition(ladder_ref("snitch"), config={"city": "paris", "players": 3})
    LadderStore(redis_client).create(snitch)
    sides = ((("random",), 12.0), (("greedy",), 30.0), (("search#3",), 3.0))
    RatingStore(redis_client).apply(snitch, TableResult("t1", sides, 1.0))
    shown = arena(redis_server_url, "ladder", "show", "snitch", "--by", "ordinal")
    assert shown.exit_code == 0, shown.output
    rows = [line for line in shown.output.splitlines() if line.startswith("│")]
    assert [row.split("│")[2].strip() for row in rows] == ["greedy", "random", "search#3"]
    greedy = RatingStore(redis_client).standing(snitch, "greedy")
    assert "Weng-Lin" in shown.output and f" {greedy.ordinal:.2f} " in rows[0]
    history = arena(redis_server_url, "ladder", "history", "snitch", "random")
    assert history.exit_code == 0 and "search#3" in history.output  # a table: two opponents


def test_bad_input_gives_one_clear_line(redis_client: redis.Redis, redis_server_url: str) -> None:
    url = redis_server_url
    one_line_error(
        arena(url, "ladder", "create", "neg", "--k", "-5"), "K factor must be a positive"
    )
    one_line_error(arena(url, "ladder", "create", "zero", "--k", "0"), "K factor")
    one_line_error(
        arena(url, "ladder", "create", "x", "--bots", "random,nobot"),
        "unknown built-in bot 'nobot'",
    )
    one_line_error(arena(url, "ladder", "create", "bad name"), "bad ladder name")
    one_line_error(arena(url, "ladder", "show", "nope"), "unknown ladder nope")
    one_line_error(arena(url, "ladder", "run", "nope", "--once"), "unknown ladder nope")
    one_line_error(arena(url, "ladder", "rebuild", "nope"), "unknown ladder nope")
    assert arena(url, "ladder", "create", "main").exit_code == 0
    one_line_error(arena(url, "ladder", "create", "main"), "already exists")
    one_line_error(arena(url, "ladder", "history", "main", "ghost"), "'ghost' has no rated result")
    one_line_error(arena(url, "ladder", "bots", "main", "nobot"), "unknown built-in bot 'nobot'")
    one_line_error(arena(url, "ladder", "create", "odd", "--games-per-match", "3"), "even")


def test_bench_ratings_prints_its_figures(redis_client: redis.Redis, redis_server_url: str) -> None:
    bench = ("bench", "ratings", "--bots", "20", "--updates", "30", "--scrapes", "1")
    result = arena(redis_server_url, *bench, "--processes", "2", "--batched", "50")
    assert result.exit_code == 0, result.output
    assert "updates/s" in result.output and "/metrics with 20 rated bots" in result.output
    assert "Weng-Lin table updates: 30 3-player tables" in result.output
    for what in ("two-bot results: 50", "3-player tables: 50"):
        assert f"Batched {what} in" in result.output
        assert (
            "compiled: no; ladder rebuild identical: yes"
            in result.output.split(f"Batched {what}")[1]
        )
    one_line_error(arena(redis_server_url, *bench), "must be an empty database")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _scrape(port: int, process: subprocess.Popen[str], timeout_s: float = 90) -> str:
    """The first /metrics page `process` serves on `port`; its stderr if it dies first. The
    wait is long because starting a server on a loaded two-core machine can take half a minute."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as reply:
                return str(reply.read().decode())
        except (urllib.error.URLError, ConnectionError):
            if process.poll() is not None:
                _, stderr = process.communicate()
                pytest.fail(f"exited {process.returncode} before serving: {stderr[-2000:]}")
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_serve_and_the_standalone_exporter_serve_metrics(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    commands = [
        ["serve", "--port", "0", "--metrics-port", str(_free_port())],
        ["metrics", "--host", "127.0.0.1", "--port", str(_free_port())],
    ]
    for command in commands:
        port = int(command[-1])
        process = subprocess.Popen(
            [sys.executable, "-m", "arena", *command, "--redis-url", redis_server_url],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            text = _scrape(port, process)
        finally:
            process.terminate()
            process.wait(20)
        assert "arena_redis_up 1.0" in text and "arena_queue_jobs" in text


def test_ladders_get_a_fresh_seed_unless_one_is_given(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    from arena.store.ladders import LadderStore, ladder_ref

    url = redis_server_url
    for name in ("north", "south"):
        assert arena(url, "ladder", "create", name, "--bots", "random,greedy").exit_code == 0
    store = LadderStore(redis_client)
    north, south = (store.get(ladder_ref(name)).seed for name in ("north", "south"))
    assert north != south
    made = arena(url, "ladder", "create", "west", "--bots", "random", "--seed", "7")
    assert "seed 7." in made.output and store.get(ladder_ref("west")).seed == 7


def test_a_ladder_name_alone_finds_its_game(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    url = redis_server_url
    made = arena(url, "ladder", "create", "eu", "--game", "caper-europe", "--bots", "random")
    assert made.exit_code == 0, made.output
    for command in (
        ("show", "eu"),
        ("bots", "eu", "random,greedy"),
        ("run", "eu", "--max-matches", "1", "--inline", "--seed", "1"),
        ("history", "eu", "greedy"),
        ("rebuild", "eu", "--check"),
    ):
        result = arena(url, "ladder", *command)
        assert result.exit_code == 0, (command, result.output)
        assert "caper-europe rules v" in result.output or "random" in result.output
    assert arena(url, "ladder", "create", "eu", "--bots", "random").exit_code == 0  # caper's eu
    one_line_error(arena(url, "ladder", "show", "eu"), "several games (caper, caper-europe)")
    europe = arena(url, "ladder", "rebuild", "eu", "--game", "caper-europe", "--check")
    assert (
        europe.exit_code == 0 and "eu (caper-europe rules v1) checked: 1 results" in europe.output
    )
    one_line_error(arena(url, "ladder", "show", "nope"), "unknown ladder nope; known ladders:")
