"""Every command block of the README runs as written.

Each ```sh block runs in bash (`set -eo pipefail`) in a scratch folder, with `arena` on PATH and
REDIS_URL pointing at an emptied database of the suite's Redis. A block is left out only when an
HTML comment just above it says why, in one of these forms:

    <!-- readme-test: skip (why) -->   not run: it installs, deploys, or starts a server that
                                        runs until Ctrl-C
    <!-- readme-test: worker -->       run while an `arena worker` plays what it queues, as the
                                        section says workers do
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis

README = Path(__file__).resolve().parents[2] / "README.md"
BLOCK = re.compile(r"(?:<!-- readme-test: (?P<marker>[^>]*?) -->\n)?```sh\n(?P<body>.*?)```", re.S)
BLOCK_TIMEOUT_S = 300  # generous: two shared cores


@dataclass(frozen=True)
class Block:
    line: int
    marker: str
    body: str

    @property
    def skipped(self) -> bool:
        return self.marker.startswith("skip")


def readme_blocks() -> list[Block]:
    text = README.read_text()
    return [
        Block(text.count("\n", 0, m.start("body")), m.group("marker") or "", m.group("body"))
        for m in BLOCK.finditer(text)
    ]


def test_every_excluded_block_says_why() -> None:
    blocks = readme_blocks()
    assert len(blocks) == README.read_text().count("```sh"), "a block the pattern missed"
    for block in blocks:
        assert block.marker in ("", "worker") or re.fullmatch(r"skip \(.{10,}\)", block.marker), (
            f"README line {block.line}: unknown or unexplained marker {block.marker!r}"
        )
    assert [b for b in blocks if not b.skipped], "no block runs"


RUN = [b for b in readme_blocks() if not b.skipped]


@pytest.fixture
def scratch(tmp_path: Path, redis_client: redis.Redis, redis_server_url: str) -> dict[str, str]:
    bin_dir = str(Path(sys.executable).parent)
    return {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": str(README.parent),
        "REDIS_URL": redis_server_url,
        "COLUMNS": "120",
    }


@pytest.fixture
def worker(scratch: dict[str, str], tmp_path: Path) -> Iterator[None]:
    with (tmp_path / "worker.log").open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "arena", "worker"], env=scratch, stdout=log, stderr=log
        )
    yield
    process.terminate()
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.mark.parametrize("block", RUN, ids=[f"line-{b.line}" for b in RUN])
def test_the_readme_block_runs_as_written(
    block: Block, scratch: dict[str, str], tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if block.marker == "worker":
        request.getfixturevalue("worker")
    ran = subprocess.run(
        ["bash", "-c", f"set -eo pipefail\n{block.body}"],
        cwd=tmp_path,
        env=scratch,
        capture_output=True,
        text=True,
        timeout=BLOCK_TIMEOUT_S,
        check=False,
    )
    assert ran.returncode == 0, f"README line {block.line}:\n{ran.stdout[-3000:]}\n{ran.stderr}"
    assert "Traceback" not in ran.stderr, ran.stderr
