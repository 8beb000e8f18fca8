"""The research example: IS-MCTS measured against random play, and played as an SDK bot
against a built-in bot on a real gateway on loopback (as tests/bots_sdk do with the examples)."""

from __future__ import annotations

import re
import secrets
import subprocess
import sys
from collections.abc import Iterator

import pytest

from arena.gateway.testing import Arena, running_arena
from arena.referee.referee import Termination
from tests.bots_sdk.js import finish
from tests.bots_sdk.online import wait_online

pytestmark = pytest.mark.timeout(300)
EXAMPLE = [sys.executable, "-m", "bots_sdk.examples.research.ismcts_bot"]


@pytest.fixture
def arena(redis_server_url: str) -> Iterator[Arena]:
    with running_arena(redis_server_url) as running:
        yield running


def test_evaluate_prints_the_win_rate_against_random_play() -> None:
    command = [*EXAMPLE, "evaluate", "--game", "caper", "--city", "rome", "--games", "4"]
    done = subprocess.run([*command, "--simulations", "10"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    found = re.search(
        r"won (\d+), drew (\d+), lost (\d+) of 4 games \(win rate \d+%\)", done.stdout
    )
    assert found and sum(map(int, found.groups())) == 4, done.stdout
    assert "caper(city=rome,players=2)" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "caper", "--city", "atlantis"], "error: unknown city 'atlantis'"),
        (["--game", "caper-europe", "--players", "3"], "error: caper-europe takes no --players"),
    ],
)
def test_evaluate_rejects_a_bad_setting_with_a_message(args: list[str], message: str) -> None:
    done = subprocess.run([*EXAMPLE, "evaluate", *args], capture_output=True, text=True)
    assert done.returncode != 0 and message in done.stderr and "Traceback" not in done.stderr


def test_the_ismcts_bot_plays_both_editions_through_the_sdk(arena: Arena) -> None:
    name = f"ismcts-{secrets.token_hex(3)}"
    command = [*EXAMPLE, "play", "--target", arena.target, "--token", arena.register_bot(name)]
    command += ["--games", "4", "--simulations", "10"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_online(arena, name)
        outcomes = arena.play_match(name, "random", games=2, seed=3)
        outcomes += arena.play_match(
            name, "random", games=2, seed=3, config={"city": "london"}, game="caper-europe"
        )
    finally:
        code, output = finish(process)
    assert all(o.termination is Termination.NORMAL for o in outcomes), [o.reason for o in outcomes]
    assert [o.record.game for o in outcomes] == ["caper"] * 2 + ["caper-europe"] * 2
    assert code == 0 and "played 4 games: stopping" in output, output
