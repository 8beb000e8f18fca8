"""The SDK runs an unchanged `Bot` as a program bot with --stdio."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.hosted.jsonlines import decode_request, encode
from arena.v1 import bot_pb2
from bots_sdk.examples.random_bot import RandomBot
from bots_sdk.stdio import run_stdio

ROOT = Path(__file__).resolve().parents[2]


def test_run_stdio_says_hello_and_counts_the_games_over() -> None:
    over = bot_pb2.ConnectResponse(game_over=bot_pb2.GameOver(game_id="g", seat=0))
    out = io.BytesIO()
    games = run_stdio(RandomBot, io.BytesIO(b"\n" + encode(over)), out)
    hello = decode_request(out.getvalue().splitlines(keepends=True)[0])
    assert hello.hello.protocol_version == 1 and "caper" in hello.hello.games
    assert games == 1


def test_the_example_bot_plays_as_a_program(monkeypatch: pytest.MonkeyPatch) -> None:
    """Unsandboxed: the sandbox shows the system's Python, which need not be this one."""
    command = f"cmd:{sys.executable} -m bots_sdk.examples.random_bot --stdio"
    monkeypatch.chdir(ROOT)
    out = CliRunner().invoke(main, ["play", command, "greedy", "-n", "2", "--no-sandbox"])
    assert out.exit_code == 0, out.output
    assert "2 games" in out.output and "stopped playing" not in out.output
