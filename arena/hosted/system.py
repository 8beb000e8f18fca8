"""What a sandbox sees of the host's system, read-only: only the runtime its program asks for.

Every runtime gets the C library and the dynamic loader, as whole folders (the multiarch
library folders and lib64): chasing each program's libraries one by one with ldd would miss
what an interpreter loads later (an extension module's libraries). A runtime's own
executables and trees come on top of that: for "python" the interpreter and its standard
library, for "node" node and its module folders, for "native" nothing more. No shell, compiler
or other interpreter is there unless the runtime is one. With no runtime named (a local
program's command, or a build, whose shell script may call any tool of the system) the sandbox
sees the whole of /usr, and /etc/alternatives' symlinks (cc -> gcc, ...).

The merged-usr links at the top (/bin -> usr/bin, /lib64 -> usr/lib64, ...) are made in the
sandbox as the host has them, so a program finds what it is shown at the paths it expects.
"""

from __future__ import annotations

import functools
import os
import shutil
from pathlib import Path

SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"  # where a runtime's program is looked for
TOP_LINKS = ("bin", "lib", "lib64", "sbin")


def system_binds(runtime: str | None) -> list[str]:
    """bubblewrap's arguments showing the system `runtime` needs (None: all of /usr)."""
    return _top_links() + (_whole_system() if runtime is None else _runtime_binds(runtime))


def _top_links() -> list[str]:
    args = []
    for link in TOP_LINKS:
        target = Path("/", link)
        if target.is_symlink():
            args += ["--symlink", os.readlink(target), f"/{link}"]
    return args


def _whole_system() -> list[str]:
    args = ["--ro-bind", "/usr", "/usr"]
    for top in TOP_LINKS:
        if not Path("/", top).is_symlink() and Path("/", top).is_dir():
            args += ["--ro-bind", f"/{top}", f"/{top}"]
    if Path("/etc/alternatives").is_dir():
        args += ["--ro-bind", "/etc/alternatives", "/etc/alternatives"]
    return args


@functools.cache
def _runtime_binds(runtime: str) -> list[str]:
    """The library folders and the runtime's own files (worked out once per process: the
    system does not change under a running arena)."""
    args: list[str] = []
    for folder in _library_folders():
        args += ["--ro-bind", str(folder), str(folder)]
    for path in _runtime_paths(runtime):
        args += _bind_through_links(path)
    return args


def _library_folders() -> list[Path]:
    """The C library, the loader and every shared library of the system: the multiarch folders
    (/usr/lib/x86_64-linux-gnu, ...) and lib64, in /usr and, where / is not merged, in /."""
    found = []
    for root in (Path("/usr"), Path("/")):
        lib = root / "lib"
        if lib.is_symlink() or not lib.is_dir():
            continue
        found += sorted(p for p in lib.glob("*-linux-gnu*") if p.is_dir() and not p.is_symlink())
        lib64 = root / "lib64"
        if lib64.is_dir() and not lib64.is_symlink():
            found.append(lib64)
    return found


def _runtime_paths(runtime: str) -> list[Path]:
    if runtime == "python":
        return _python_paths()
    if runtime == "node":
        return _node_paths()
    return []


def _python_paths() -> list[Path]:
    """python3 (through its links), its standard library (lib/pythonX.Y beside its bin) and,
    for an interpreter built shared (as in /usr/local), its libpython."""
    found = shutil.which("python3", path=SYSTEM_PATH)
    if found is None:
        return []
    binary = Path(found).resolve()
    prefix = binary.parent.parent
    return [Path(found), prefix / "lib" / binary.name, *(prefix / "lib").glob(f"lib{binary.name}*")]


def _node_paths() -> list[Path]:
    """node (through its links) and the module folders a packaged node searches."""
    found = shutil.which("node", path=SYSTEM_PATH)
    if found is None:
        return []
    prefix = Path(found).resolve().parent.parent
    return [Path(found), prefix / "share" / "nodejs", prefix / "lib" / "nodejs"]


def _bind_through_links(path: Path) -> list[str]:
    """`path` bound read-only where it is, each symlink on the way to it made in the sandbox
    as it is on the host (/usr/bin/python3 -> python3.11); nothing for a path that is not."""
    args: list[str] = []
    current = Path(os.path.realpath(path.parent)) / path.name
    for _ in range(16):  # no loop of links can hold it
        if not current.is_symlink():
            break
        target = os.readlink(current)
        args += ["--symlink", target, str(current)]
        following = current.parent / target
        current = Path(os.path.realpath(following.parent)) / following.name
    if not current.exists():
        return []
    return [*args, "--ro-bind", str(current), str(current)]
