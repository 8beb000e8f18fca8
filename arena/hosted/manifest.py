"""A submission's manifest, `arena-bot.toml` at the top of its folder: how to run the bot, how to
build it first if it needs building, and which runtime of the arena's system it needs.

    command = "python3 bot.py"          # or a list: ["python3", "bot.py"]
    build = "cc -O2 -o bot bot.c"       # optional, run once per version by /bin/sh -c
    runtime = "python"                  # python (bots_sdk importable), node or native

Unknown keys are refused, so a misspelt `biuld` is not silently ignored.
"""

from __future__ import annotations

import importlib.util
import shlex
import shutil
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

MANIFEST_NAME = "arena-bot.toml"
# The runtime a manifest names -> the program the arena's system must have for it.
RUNTIMES: dict[str, str | None] = {"python": "python3", "node": "node", "native": None}
MAX_FIELD = 1000  # characters of a command or build command
KEYS = frozenset({"command", "build", "runtime"})


class ManifestError(ValueError):
    """A manifest that cannot be used; the message says what to fix."""


@dataclass(frozen=True, slots=True)
class Manifest:
    command: tuple[str, ...]
    build: str | None
    runtime: str

    def to_dict(self) -> dict[str, object]:
        return {"command": list(self.command), "build": self.build, "runtime": self.runtime}


def parse_manifest(text: bytes) -> Manifest:
    """The manifest in `text` (the bytes of arena-bot.toml), or ManifestError saying why not."""
    try:
        fields = tomllib.loads(text.decode())
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ManifestError(f"{MANIFEST_NAME} is not valid TOML: {error}") from None
    unknown = sorted(set(fields) - KEYS)
    if unknown:
        raise ManifestError(
            f"{MANIFEST_NAME}: unknown key(s) {', '.join(unknown)}; "
            f"the keys are {', '.join(sorted(KEYS))}"
        )
    if "command" not in fields:
        raise ManifestError(f'{MANIFEST_NAME} names no command: add e.g. command = "./bot"')
    runtime = fields.get("runtime", "native")
    if runtime not in RUNTIMES:
        raise ManifestError(
            f"{MANIFEST_NAME}: unknown runtime {runtime!r}; use one of {', '.join(RUNTIMES)}"
        )
    build = fields.get("build")
    if build is not None and (not isinstance(build, str) or not build.strip()):
        raise ManifestError(f"{MANIFEST_NAME}: build must be a non-empty string (a shell command)")
    if build is not None and len(build) > MAX_FIELD:
        raise ManifestError(f"{MANIFEST_NAME}: build is longer than {MAX_FIELD} characters")
    return Manifest(_command(fields["command"]), build, runtime)


def _command(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        try:
            words = shlex.split(value)
        except ValueError as error:
            raise ManifestError(f"{MANIFEST_NAME}: cannot read command: {error}") from None
    elif isinstance(value, list) and all(isinstance(word, str) for word in value):
        words = list(value)
    else:
        raise ManifestError(f"{MANIFEST_NAME}: command must be a string or a list of strings")
    if not words or not words[0]:
        raise ManifestError(f"{MANIFEST_NAME}: command is empty")
    if sum(len(word) for word in words) > MAX_FIELD or any("\0" in word for word in words):
        raise ManifestError(f"{MANIFEST_NAME}: command is too long or holds a NUL")
    return tuple(words)


def missing_runtime(runtime: str) -> str | None:
    """Why this arena cannot run `runtime` (its program is not in the system's /usr), or None."""
    program = RUNTIMES[runtime]
    if program is None or shutil.which(program, path="/usr/local/bin:/usr/bin:/bin"):
        return None
    return f"the runtime {runtime!r} needs {program}, which this arena does not have"


def runtime_folders(runtime: str) -> tuple[Path, ...]:
    """The folders of this arena a runtime lends the program, read-only: for "python", the
    arena's own environment, so `import bots_sdk` works (the SDK's `run_stdio` plays any Bot as
    a program). An editable install keeps the arena's packages outside that environment: their
    folders are lent too, each alone (not the source tree around them)."""
    if runtime != "python":
        return ()
    environment = Path(sys.prefix)
    packages = [_package_folder(name) for name in ("arena", "bots_sdk")]
    outside = tuple(p for p in packages if not p.resolve().is_relative_to(environment.resolve()))
    return (environment, *outside) if sys.prefix != sys.base_prefix else outside


def _package_folder(name: str) -> Path:
    """Where an installed package lives, found without importing it (the SDK sits above
    this layer)."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError(f"the package {name} is not installed here")
    return Path(spec.origin).parent
