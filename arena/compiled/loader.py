"""The optional compiled engine: the modules of both Caper editions and of Age of Thieves built
by mypyc into native code (and the rating maths of `RATINGS`).

The pure-Python engine is the default. `python -m arena.compiled.build` (or `make
engine-compiled`) builds the compiled one into `build/engine`; setting `ARENA_COMPILED_ENGINE=1`
(or to another build directory) makes `arena.games` load it instead. A build records the hash of
every source it compiled: if any has changed since, or the build is for another Python, the
engine stays pure Python and one line on stderr says why, so a stale build never plays old rules.
`compiled_modules()` tells which is loaded (`arena bench engine` prints it).

Standard library only, as the engine is: building needs mypy, loading does not.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType

ENVIRONMENT = "ARENA_COMPILED_ENGINE"
MANIFEST = "manifest.json"
ROOT = Path(__file__).resolve().parents[2]  # the folder holding the `arena` package
DEFAULT_BUILD = ROOT / "build" / "engine"
# The packages whose modules are compiled (their __init__ and game modules stay Python).
PACKAGES = (
    "arena.games.caper_common",
    "arena.games.caper",
    "arena.games.caper_europe",
    "arena.games.age_of_thieves",
)
# Beside the engine, the work of batched ratings: one result rated on floats,
# and results rated in turn with their text for Redis formatted (`arena.ratings.batch`).
# `arena.ratings` imports this module first, so they load from the build when it is enabled.
RATINGS = ("arena.ratings.single", "arena.ratings.glicko2", "arena.ratings.batch")


class BuildError(ValueError):
    """A compiled build cannot be used: the message says why and what to do."""


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def source_path(module: str) -> Path:
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def extension_suffix() -> str:
    """The file ending of this interpreter's extension modules: a build for another Python (or
    another platform) has another one and cannot be loaded."""
    return importlib.machinery.EXTENSION_SUFFIXES[0]


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules of one build (and mypyc's shared library) before the usual
    finders look beside the sources."""

    def __init__(self, binaries: Mapping[str, Path]) -> None:
        self.binaries = dict(binaries)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        binary = self.binaries.get(fullname)
        return None if binary is None else importlib.util.spec_from_file_location(fullname, binary)


def load_manifest(build: Path) -> dict[str, Path]:
    """Every module of the build at `build` with its binary, checked: `BuildError` if there is
    no build, it is for another Python, or a source changed since it was built."""
    try:
        manifest = json.loads((build / MANIFEST).read_text())
    except FileNotFoundError:
        raise BuildError(f"no build in {build}: run `python -m arena.compiled.build`") from None
    except (OSError, ValueError) as error:
        raise BuildError(f"unreadable build manifest in {build}: {error}") from None
    if manifest.get("suffix") != extension_suffix():
        raise BuildError(f"the build in {build} is for another Python ({manifest.get('suffix')})")
    binaries = {name: build / file for name, file in manifest["support"].items()}
    for name, entry in manifest["modules"].items():
        source = source_path(name)
        if not source.is_file() or source_hash(source) != entry["source_sha256"]:
            raise BuildError(f"{source.relative_to(ROOT)} changed since the build: rebuild it")
        binaries[name] = build / entry["binary"]
    missing = [str(path) for path in binaries.values() if not path.is_file()]
    if missing:
        raise BuildError(f"the build in {build} lacks {', '.join(missing)}")
    return binaries


def enable(build: Path) -> None:
    """Load the engine modules from the build at `build` from now on (`BuildError` if it cannot
    be used). Must run before any of them is imported, or both kinds would mix."""
    binaries = load_manifest(build)
    imported = [name for name in binaries if name in sys.modules]
    if imported:
        raise BuildError(f"too late: {imported[0]} is already imported as Python")
    sys.meta_path.insert(0, _Finder(binaries))


def build_folder(setting: str) -> Path | None:
    """The build an `ARENA_COMPILED_ENGINE` value names: "1" the default `build/engine`, a path
    that folder; empty or "0" none (the pure-Python engine)."""
    setting = setting.strip()
    if setting in ("", "0"):
        return None
    return DEFAULT_BUILD if setting == "1" else Path(setting)


def enable_from_environment() -> None:
    """`enable` the build `ARENA_COMPILED_ENGINE` names, if any and if no build is enabled yet
    (`arena.games` and `arena.ratings` both ask, whichever is imported first). A build that
    cannot be used is reported on stderr and skipped: the pure-Python engine plays."""
    build = build_folder(os.environ.get(ENVIRONMENT, ""))
    if build is None or any(isinstance(finder, _Finder) for finder in sys.meta_path):
        return
    try:
        enable(build)
    except BuildError as error:
        print(f"arena: the pure-Python engine is used: {error}", file=sys.stderr)


def engine_line() -> str:
    """Which engine is loaded, in a few words (for benchmarks)."""
    native = compiled_modules()
    return f"compiled: yes ({len(native)} native modules)" if native else "compiled: no"


def compiled_modules() -> list[str]:
    """The engine modules imported so far that are native code."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return sorted(
        name
        for name, module in list(sys.modules.items())
        if (name.startswith(PACKAGES) or name in RATINGS)
        and str(getattr(module, "__file__", "")).endswith(suffixes)
    )
