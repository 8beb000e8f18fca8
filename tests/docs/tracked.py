"""The project's own files as git tracks them, read as text (binary files left out)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def tracked_files() -> list[Path]:
    """Every file git tracks (the working copy's version), relative to the repository root."""
    listing = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    return [Path(name) for name in listing.decode().split("\0") if name]


def text_lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, line) of a tracked text file; nothing for a binary or a deleted one."""
    full = ROOT / path
    if not full.is_file():
        return
    data = full.read_bytes()
    if b"\0" in data:
        return
    yield from enumerate(data.decode("utf-8", errors="replace").splitlines(), start=1)
