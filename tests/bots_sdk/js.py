"""Running the Node.js example bot (bots_sdk/examples/js) from the tests."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

JS_DIR = Path(__file__).resolve().parents[2] / "bots_sdk" / "examples" / "js"


def node_bot_ready() -> Path:
    """The folder of bot.js with its dependencies installed (Node comes from PyPI, see conftest:
    a missing Node fails the test rather than skipping a feature the issue requires)."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.fail(
            "Node.js and npm are needed for the Node bot: pip install -e .[dev] brings them"
        )
    if not (JS_DIR / "node_modules" / "@grpc" / "grpc-js").is_dir():
        done = subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund"],
            cwd=JS_DIR,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        if done.returncode != 0:
            pytest.fail(f"npm ci failed: {done.stderr[-500:]}")
    return JS_DIR


def start_node_bot(target: str, token: str, max_games: int | None) -> subprocess.Popen[str]:
    env = {**os.environ, "ARENA_TARGET": target, "ARENA_TOKEN": token}
    if max_games is not None:
        env["ARENA_MAX_GAMES"] = str(max_games)
    return subprocess.Popen(
        ["node", "bot.js"],
        cwd=node_bot_ready(),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def finish(process: subprocess.Popen[str], timeout_s: float = 60.0) -> tuple[int, str]:
    """The exit code and output; kills the bot if it does not exit in time."""
    try:
        output, _ = process.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        process.kill()
        output, _ = process.communicate()
        raise AssertionError(f"the Node bot did not exit; it printed:\n{output}") from None
    return process.returncode, output
