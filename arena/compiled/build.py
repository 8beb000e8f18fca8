"""`python -m arena.compiled.build [--out DIR]`: build the optional compiled engine.

mypyc (it comes with mypy, a dev dependency) turns the typed modules of both Caper editions and
of Age of Thieves into C, and the system C compiler builds them. The result goes to DIR
(`build/engine` by default) with a manifest of the sources it was built from; nothing beside the
sources changes, so the pure-Python engine stays the default until `ARENA_COMPILED_ENGINE` turns
the build on (see `arena.compiled.loader`).

Left out: the packages' `__init__` modules (so they stay plain packages the loader can fill) and
the `game` modules (Caper's generic dataclass `Edition` mypyc cannot compile, mypyc/mypyc#827);
they are thin facades, the rules are all compiled.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from arena.compiled.loader import (
    DEFAULT_BUILD,
    MANIFEST,
    PACKAGES,
    RATINGS,
    ROOT,
    extension_suffix,
    source_hash,
    source_path,
)

LEFT_OUT = frozenset({"__init__", "game"})


def engine_modules() -> list[str]:
    """The modules to compile, by name: the engine's, then the rating maths' (`RATINGS`)."""
    names = []
    for package in PACKAGES:
        for path in sorted(source_path(package + ".__init__").parent.glob("*.py")):
            if path.stem not in LEFT_OUT:
                names.append(f"{package}.{path.stem}")
    return names + list(RATINGS)


def build(out: Path, jobs: int) -> list[str]:
    """Compile every engine module into `out` and write its manifest last (a build that fails
    half-way leaves none, so it is never loaded). Returns the modules compiled."""
    from mypyc.build import mypycify  # build-time only: the engine never imports mypy
    from setuptools import setup  # type: ignore[import-untyped]  # ships no type information

    modules = engine_modules()
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    sources = [str(source_path(name).relative_to(ROOT)) for name in modules]
    cwd = Path.cwd()
    os.chdir(ROOT)  # mypy names the modules from their paths under the project
    try:
        # Our own mypy cache: the project's type-checking runs keep theirs untouched.
        extensions = mypycify(
            ["--cache-dir", str(out / "mypy_cache"), *sources],
            multi_file=True,
            target_dir=str(out / "c"),
        )
        arguments = ["--quiet", "build_ext", "--build-lib", str(out), "--build-temp"]
        arguments += [str(out / "objects"), "--parallel", str(jobs)]
        commands = {"build_ext": _parallel_build_ext(jobs)}
        setup(
            name="arena-compiled-engine",
            ext_modules=extensions,
            script_args=arguments,
            cmdclass=commands,
        )
    finally:
        os.chdir(cwd)
    _write_manifest(out, modules)
    return modules


def _parallel_build_ext(jobs: int) -> type:
    """setuptools' build_ext, compiling the C files of each extension `jobs` at a time: its own
    --parallel builds extensions side by side but each one's files in turn, and mypyc puts all
    the engine's code into one shared library, whose many C files are slow to compile at -O3."""
    from setuptools.command.build_ext import build_ext  # type: ignore[import-untyped]

    class ParallelBuildExt(build_ext):  # type: ignore[misc]  # setuptools is untyped
        def build_extension(self, extension: Any) -> None:
            compile_files = self.compiler.compile

            def compile_each(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
                with ThreadPoolExecutor(jobs) as pool:  # each thread waits on a compiler
                    done = pool.map(
                        lambda source: compile_files([source], *args, **kwargs), sources
                    )
                    return [obj for objects in done for obj in objects]

            self.compiler.compile = compile_each
            try:
                super().build_extension(extension)
            finally:
                self.compiler.compile = compile_files

    return ParallelBuildExt


def _write_manifest(out: Path, modules: list[str]) -> None:
    suffix = extension_suffix()
    support = {path.name.removesuffix(suffix): path.name for path in out.glob(f"*{suffix}")}
    entries = {
        name: {
            "binary": str(Path(*name.split(".")).with_suffix(suffix)),
            "source_sha256": source_hash(source_path(name)),
        }
        for name in modules
    }
    manifest = {"suffix": suffix, "support": support, "modules": entries}
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m arena.compiled.build", description=__doc__)
    parser.add_argument("--out", type=Path, default=DEFAULT_BUILD, help="the build directory")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="C compilers")
    args = parser.parse_args(argv)
    try:
        import mypyc  # noqa: F401
    except ImportError:
        print("building the compiled engine needs mypy: pip install -e '.[dev]'", file=sys.stderr)
        return 1
    start = time.monotonic()
    modules = build(args.out.resolve(), args.jobs)
    seconds = time.monotonic() - start
    print(f"compiled {len(modules)} engine modules into {args.out} in {seconds:.0f} s")
    hint = "1" if args.out.resolve() == DEFAULT_BUILD else str(args.out.resolve())
    print(f"use it with: ARENA_COMPILED_ENGINE={hint} arena bench engine --game all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
