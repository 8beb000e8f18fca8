"""The committed gencode in arena/v1 is exactly what proto/generate.py makes from the .proto files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_generated_code_matches_the_proto_files() -> None:
    # sys.executable is the venv's interpreter, whose bin/ holds the pinned protoc plugins.
    check = subprocess.run(
        [sys.executable, "proto/generate.py", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert check.returncode == 0, check.stdout + check.stderr
