"""The optional compiled engine (both Caper editions and Age of Thieves): built with mypyc once
per session into a temporary folder, it plays byte-identical games to the pure-Python engine, passes the conformance
checker and every engine test; and a missing or stale build is never loaded.

The build compiles many C files, so it is made once per session and every check shares it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest

from arena.compiled.loader import (
    ENVIRONMENT,
    MANIFEST,
    RATINGS,
    ROOT,
    BuildError,
    extension_suffix,
    load_manifest,
)
from tests.protocol import toolchain

# Per table: random games, greedy games, games under the conformance checker.
PROBE_GAMES = ("100", "15", "10")
COMPARED = re.compile(
    r"^(\S+) \(([a-z ]+), (\d) players\): pure [\d,]+, compiled [\d,]+ games/s: [\d.]+x$", re.M
)
ENGINE_TESTS = (
    "tests/games/caper",
    "tests/games/caper_common",
    "tests/games/caper_europe",
    "tests/games/age_of_thieves",
)
RATING_TESTS = (
    "tests/ratings/test_single.py",
    "tests/ratings/test_glicko2.py",
    "tests/store/test_batch_lines.py",
)


def environment(build: Path | None) -> dict[str, str]:
    env = {**os.environ, ENVIRONMENT: str(build) if build else "0"}
    env.pop("PYTEST_ADDOPTS", None)  # the child runs take their own options
    return env


def run(command: list[str], build: Path | None) -> subprocess.CompletedProcess[str]:
    python = [sys.executable, *command]
    return subprocess.run(python, cwd=ROOT, env=environment(build), capture_output=True, text=True)


@pytest.fixture(scope="session")
def build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    toolchain.ensure(("gcc",), ("gcc",))  # mypyc's C compiler: from Debian when missing
    headers = Path(sysconfig.get_paths()["include"], "Python.h")
    assert headers.is_file(), f"building the compiled engine needs Python's headers ({headers})"
    out = tmp_path_factory.mktemp("compiled-engine")
    done = run(["-m", "arena.compiled.build", "--out", str(out)], None)
    assert done.returncode == 0, f"the build failed:\n{done.stdout}\n{done.stderr}"
    return out


def probe(build: Path | None) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "tests.compiled.compiled_probe", *PROBE_GAMES]
    return subprocess.Popen(
        command, cwd=ROOT, env=environment(build), stdout=subprocess.PIPE, text=True
    )


def figures(child: subprocess.Popen[str]) -> dict[str, Any]:
    out, _ = child.communicate()
    assert child.returncode == 0, "the probe failed (its error is above)"
    result: dict[str, Any] = json.loads(out)
    return result


def test_the_compiled_engine_plays_exactly_as_the_python_one(build: Path) -> None:
    children = probe(None), probe(build)  # side by side: one per core
    pure, compiled = (figures(child) for child in children)
    assert pure["compiled"] == []
    assert "arena.games.caper.rules" in compiled["compiled"]
    assert "arena.games.caper_europe.rules" in compiled["compiled"]
    assert "arena.games.age_of_thieves.engine" in compiled["compiled"]
    assert "arena.games.age_of_thieves.state" in compiled["compiled"]
    assert compiled["digests"] == pure["digests"]
    assert len(pure["digests"]) == 14  # random and greedy: Caper 2/3/4, Europe, Thieves 2/3/4
    assert compiled["conformance"] == pure["conformance"]
    assert all(decisions > 0 for decisions in pure["conformance"].values())


def test_every_engine_test_passes_on_the_compiled_engine(build: Path) -> None:
    options = ["-q", "-p", "no:cacheprovider", "-x"]
    done = run(["-m", "pytest", *options, *ENGINE_TESTS], build)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert " passed" in done.stdout


def test_the_compiled_rating_maths_rate_exactly_as_the_python_ones(build: Path) -> None:
    # The build also holds the one-result rating maths; every byte a batch of
    # two-bot results, tables and team games would write to Redis must be the pure path's.
    command = [sys.executable, "-m", "tests.ratings.rating_probe", "600"]
    children = [
        subprocess.Popen(command, cwd=ROOT, env=environment(b), stdout=subprocess.PIPE, text=True)
        for b in (None, build)
    ]
    pure, compiled = (figures(child) for child in children)
    assert pure["compiled"] == [] and compiled["compiled"] == sorted(RATINGS)
    assert compiled["digests"] == pure["digests"]
    assert sorted(pure["digests"]) == ["pairs", "tables", "teams"]
    done = run(["-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", *RATING_TESTS], build)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]


def fake_build(folder: Path, suffix: str, source_sha256: str) -> Path:
    entry = {"binary": "rules" + suffix, "source_sha256": source_sha256}
    manifest = {"suffix": suffix, "support": {}, "modules": {"arena.games.caper.rules": entry}}
    (folder / MANIFEST).write_text(json.dumps(manifest))
    (folder / entry["binary"]).write_bytes(b"")
    return folder


def test_a_build_is_refused_when_a_source_changed_since(tmp_path: Path) -> None:
    fake_build(tmp_path, extension_suffix(), "0" * 64)
    with pytest.raises(BuildError, match=r"caper/rules\.py changed since the build"):
        load_manifest(tmp_path)


def test_a_build_for_another_python_is_refused(tmp_path: Path) -> None:
    fake_build(tmp_path, ".cpython-39-x86_64-linux-gnu.so", "0" * 64)
    with pytest.raises(BuildError, match="for another Python"):
        load_manifest(tmp_path)


def test_without_a_usable_build_the_python_engine_plays_and_says_why(tmp_path: Path) -> None:
    script = (
        "from arena.compiled.loader import compiled_modules as c; import arena.games; print(c())"
    )
    missing = run(["-c", script], tmp_path / "nowhere")
    assert missing.stdout.strip() == "[]"
    assert "the pure-Python engine is used: no build in" in missing.stderr
    stale = run(["-c", script], fake_build(tmp_path, extension_suffix(), "0" * 64))
    assert stale.stdout.strip() == "[]"
    assert "changed since the build: rebuild it" in stale.stderr


def test_bench_engine_says_which_engine_it_measures(build: Path) -> None:
    command = ["-m", "arena", "bench", "engine", "--seconds", "0.1"]
    compiled = run(command, build)
    assert compiled.returncode == 0, compiled.stderr
    assert compiled.stdout.startswith("compiled: yes (")
    pure = run(command, None)
    assert pure.stdout.startswith("compiled: no\n")


def test_bench_engine_compares_both_engines_in_one_run(build: Path) -> None:
    command = ["-m", "arena", "bench", "engine", "--compare-compiled", "--seconds", "0.1"]
    done = run([*command, "--rounds", "1"], build)
    assert done.returncode == 0, done.stderr
    lines = COMPARED.findall(done.stdout)
    caper = [("caper", "paris", str(players)) for players in (2, 3, 4)]
    thieves = [("age-of-thieves", "one board", str(players)) for players in (2, 3, 4)]
    assert lines == [*caper, ("caper-europe", "paris", "2"), *thieves]


def test_comparing_without_a_build_is_a_clear_error(tmp_path: Path) -> None:
    command = ["-m", "arena", "bench", "engine", "--compare-compiled", "--seconds", "0.1"]
    done = run(command, tmp_path)
    assert done.returncode == 1
    assert f"Error: no build in {tmp_path}: run `python -m arena.compiled.build`" in done.stderr
    assert "Traceback" not in done.stderr
