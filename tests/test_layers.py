"""The layers' import contracts hold (pyproject.toml's [tool.importlinter], checked by
import-linter's `lint-imports`): the CLI and the web site import each other only to start
the site, the workers import no CLI, the services import none of their callers (but the arrows
named there), the pure layers import no Redis, RQ, gRPC, Prometheus or web framework, and the
referee imports neither the playing, storing or serving layers nor a clock, nothing below the
playing layer imports it, and the built-in bots import none of the layers that use them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONTRACTS = (
    "The CLI and the web site are independent: both call the services",
    "Workers import no CLI",
    "Services import no caller: CLI, web site, gateway or workers",
    "Pure layers import no Redis, RQ, gRPC, Prometheus or web framework",
    "The referee imports nothing that plays, stores or serves, and reads no clock",
    "The playing layer sits above store, metrics and the pure layers",
    "Built-in bots import no layer that referees, plays, stores or serves",
)


def test_every_layer_contract_is_kept() -> None:
    # A process of its own: in the suite's process, import-linter found packages through what
    # other tests had put on sys.path and wrote to a captured stream closed after the test.
    lint_imports = Path(sys.executable).parent / "lint-imports"
    checked = subprocess.run(
        [str(lint_imports), "--no-cache", str(ROOT / "pyproject.toml")],
        cwd=ROOT,  # the contracts name packages found from the project's root
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    report = checked.stdout + checked.stderr
    assert checked.returncode == 0, report
    for contract in CONTRACTS:
        assert f"{contract} KEPT" in report, report
