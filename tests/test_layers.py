"""The layers' import contracts hold (pyproject.toml's [tool.importlinter], checked by
import-linter as `lint-imports` does): the CLI and the web site import each other only to start
the site, the workers import no CLI, the services import none of their callers (but the arrows
named there), and the pure layers import no Redis, RQ, gRPC, Prometheus or web framework."""

from __future__ import annotations

from pathlib import Path

import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent
CONTRACTS = (
    "The CLI and the web site are independent: both call the services",
    "Workers import no CLI",
    "Services import no caller: CLI, web site, gateway or workers",
    "Pure layers import no Redis, RQ, gRPC, Prometheus or web framework",
)


def test_every_layer_contract_is_kept(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)  # the contracts name packages found from the project's root
    code = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True)
    report = capsys.readouterr().out
    assert code == 0, report
    for contract in CONTRACTS:
        assert f"{contract} KEPT" in report, report
