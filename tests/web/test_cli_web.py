"""`arena web`: serves the site until stopped; a clear line, not a traceback, when the port is
taken or Redis cannot be reached."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
import redis
from click.testing import CliRunner

from arena.cli import main
from arena.store.tournaments import TournamentStore
from tests.workers.tournaments import create_and_start

pytestmark = pytest.mark.timeout(120)


def test_an_unreachable_redis_is_one_clear_line() -> None:
    got = CliRunner().invoke(main, ["web", "--redis-url", "redis://127.0.0.1:1/0", "--port", "0"])
    assert got.exit_code == 1
    assert "Redis at redis://127.0.0.1:1/0 is unreachable" in got.output
    assert "Traceback" not in got.output


def test_a_taken_port_is_one_clear_line(redis_server_url: str) -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        got = CliRunner().invoke(
            main, ["web", "--redis-url", redis_server_url, "--port", str(port)]
        )
    assert got.exit_code == 1
    assert f"cannot listen on 127.0.0.1:{port}: the address is already in use" in got.output
    assert "Traceback" not in got.output


def test_arena_web_serves_the_store_until_sigterm(
    redis_client: redis.Redis, redis_server_url: str, tmp_path: Path
) -> None:
    create_and_start(redis_client, "served", "round-robin", ["random", "greedy", "search#4"])
    log = tmp_path / "web.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "arena", "web", "--redis-url", redis_server_url, "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=out,
        )
    assert process.stdout is not None
    line = process.stdout.readline().decode()  # "Web site http://127.0.0.1:PORT (Ctrl-C ...)"
    try:
        url = line.split()[2]
        with urllib.request.urlopen(f"{url}/tournaments/served", timeout=30) as response:
            page = response.read().decode()
        assert response.status == 200 and "served" in page
        assert TournamentStore(redis_client).status("served").value in page
    finally:
        process.send_signal(signal.SIGTERM)
        rest = process.communicate(timeout=30)[0].decode()
    assert process.returncode == 0, log.read_text()
    assert "Web site stopped." in rest


def test_bench_web_reports_server_and_fetch_times_of_a_swiss_standings_page() -> None:
    args = ["--entrants", "16", "--rounds", "4", "-n", "2", "--workers", "3"]
    got = CliRunner().invoke(main, ["bench", "web", *args])
    assert got.exit_code == 0, got.output
    said = " ".join(got.output.split())  # the console wraps lines at its width
    assert "Standings page of a 16-entrant Swiss, 4 rounds" in said
    assert "full fetch" in said and "median of 2" in said
    assert "Bots page, 16 bots registered, 32 matches recorded" in said
    assert "Workers page, 3 workers each playing a match: first view server" in said
    assert "New tournament form, signed in as the organiser, a Swiss of 16 registered" in said
    assert "create " in said and "start " in said and "then its page" in said
    for path in ("/ over it", "/tournaments over it", "/bots over it", "/head-to-head?a=bot0000"):
        assert path in said
    refused = CliRunner().invoke(main, ["bench", "web", "--entrants", "8", "--rounds", "4"])
    assert refused.exit_code != 0 and "4 rounds need at least 16 entrants" in refused.output
