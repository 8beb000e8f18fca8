"""The sandbox a program bot runs in: Debian's bubblewrap, with rlimits set before it starts.

No network (a new network namespace), a new PID namespace with its own /proc, a read-only system
with only the runtime the manifest asks for (arena.hosted.system: no other file of /etc, nor
/home, /work, /run or /var of the host), the program's folder read-only at /bot, a private
tmpfs of bounded size at /tmp, an empty environment, and an unprivileged user (nobody). CPU
time, address space, processes, open files and file size are bounded with rlimits, inherited by
everything inside. cgroups are not used: this machine has only cgroup v1 hierarchies owned by
root, and an rlimit needs no privilege.

Nothing runs in the caller's process between fork and exec, so Python's subprocess can vfork:
forking a worker-sized Python process costs far more than the sandbox itself. A small shell
script sets the rlimits instead (`ulimit`), and as root `setpriv` drops privileges first.
The shell inside the sandbox is the host's, run from an fd opened outside (a runtime shows none).

The program's stdout reaches the arena through a pipe that only the program holds: bubblewrap
keeps its own stdin, stdout and stderr open until the sandbox ends, so were the program's stdout
bubblewrap's, a program closing it would read as silence. The outer script moves the pipe to
fd 3, which bubblewrap passes on to the sandbox and closes in its own processes, and the inner
script makes it the program's stdout.
"""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.hosted.system import system_binds

NOBODY = 65534
# As root, each program's sandbox runs as a host user of its own, drawn from a range no account
# uses: the process limit counts all the processes of a user on the host, so under one shared
# user a program that forks up to its limit would leave none for the other bots' sandboxes. (A
# build keeps nobody: its folder is handed to nobody to write in.)
SANDBOX_UIDS = range(0x7E000000, 0x7F000000)
SANDBOX_DIR = "/bot"  # where the program's folder is seen inside the sandbox
MIB = 1024 * 1024


class SandboxError(OSError):
    """The sandbox cannot start on this machine (bubblewrap missing): the arena's problem."""


@dataclass(frozen=True, slots=True)
class Limits:
    """What a program may use over a whole match."""

    cpu_s: int = 60  # CPU time of each of its processes
    # Address space of each process, not resident memory: Node's V8 reserves gigabytes it never
    # touches, so a runtime's heap is better bounded by its own flag (--max-old-space-size).
    memory_mib: int = 4096
    processes: int = 64  # processes and threads of the sandbox's user
    open_files: int = 64
    file_mib: int = 16  # the largest file it may write
    tmpfs_mib: int = 32  # its private /tmp
    output_mib: int = 16  # bytes it may write to stdout and stderr together, counted by the reader
    line_kib: int = 1024  # the longest line it may send


DEFAULT_LIMITS = Limits()


@dataclass(frozen=True, slots=True)
class Launch:
    """How to start a program: its argument vector, working folder and environment. The
    program's stdout is the started process's stdout."""

    argv: list[str]
    cwd: str | None
    env: dict[str, str]
    user: int | None = None  # the host user it runs as, when the sandbox drops root


# Inside the sandbox: the pipe on fd 3 becomes the program's stdout, and only the program's.
# The shell doing it is the host's, opened on fd 4 outside and run from there: a runtime that
# has no shell of its own is shown none, and the fd is closed before the program starts.
SHELL_FD = 4
INNER = f'exec "$@" 1>&3 3>&- {SHELL_FD}<&-'


def launch(
    command: Sequence[str],
    folder: Path,
    limits: Limits,
    sandboxed: bool = True,
    runtimes: Sequence[Path] = (),
    writable: bool = False,
    runtime: str | None = None,
) -> Launch:
    """The launch of `command` run in `folder`, inside the sandbox unless `sandboxed` is False
    (debugging: the program then sees the host as the caller does, limits still apply).
    `runtimes` are extra folders bound read-only where they are on the host (a virtualenv).
    `writable`: the folder is bound read-write (a submission's build writes its products).
    `runtime`: the system runtime shown (a manifest's python, node or native; None, the whole
    system, for a command that names none, arena.hosted.system)."""
    folder = folder.resolve()
    if not sandboxed:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(folder)}
        return Launch(_limited(limits, list(command), move_stdout=False), str(folder), env)
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise SandboxError(
            "bubblewrap (bwrap) is not installed: install it (make test-tools, or apt-get install "
            "bubblewrap), or play with --no-sandbox"
        )
    argv = [bwrap, *_isolation(runtimes), *system_binds(runtime)]
    argv += _filesystem(folder, limits, runtimes, writable)
    argv += ["--chdir", SANDBOX_DIR, "--", f"/proc/self/fd/{SHELL_FD}", "-c", INNER, "sh"]
    argv += command
    user = NOBODY if writable else SANDBOX_UIDS[secrets.randbelow(len(SANDBOX_UIDS))]
    dropped = user if os.geteuid() == 0 else None
    return Launch(_as_user(_limited(limits, argv, move_stdout=True), user), None, {}, dropped)


def _isolation(runtimes: Sequence[Path]) -> list[str]:
    # A virtualenv given as a runtime lends its packages to the system's Python, and so does
    # a package's own folder given as one (an editable install's source: its parent goes first).
    packages = [str(r.resolve().parent) for r in runtimes if (r / "__init__.py").is_file()]
    packages += [str(p.resolve()) for r in runtimes for p in r.glob("lib/python3*/site-packages")]
    python_path = ["--setenv", "PYTHONPATH", ":".join(packages)] if packages else []
    return [
        "--unshare-all",  # network, PID, IPC, UTS, cgroup and user namespaces
        "--die-with-parent",
        "--new-session",  # no TIOCSTI into the caller's terminal
        "--clearenv",
        "--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin",
        "--setenv", "HOME", "/tmp",
        "--setenv", "TMPDIR", "/tmp",
        "--uid", str(NOBODY),
        "--gid", str(NOBODY),
        "--hostname", "sandbox",
        *python_path,
    ]  # fmt: skip


def _filesystem(
    folder: Path, limits: Limits, runtimes: Sequence[Path], writable: bool
) -> list[str]:
    args = []
    for runtime in runtimes:
        args += ["--ro-bind", str(runtime.resolve()), str(runtime.resolve())]
    args += ["--proc", "/proc", "--dev", "/dev"]
    args += ["--size", str(limits.tmpfs_mib * MIB), "--tmpfs", "/tmp"]
    args += ["--bind" if writable else "--ro-bind", str(folder), SANDBOX_DIR]
    # The root is bubblewrap's own tmpfs, where it made the folders of what is bound (/usr,
    # /usr/bin, ...): read-only too, so nothing but /tmp (and a build's /bot) takes a file.
    args += ["--remount-ro", "/"]
    return args


def _limited(limits: Limits, argv: list[str], move_stdout: bool) -> list[str]:
    """`argv` run by a shell that first sets the rlimits (both soft and hard: the program cannot
    raise them again), and moves its stdout to fd 3 when `move_stdout`."""
    bounds = [
        ("-t", limits.cpu_s),  # seconds
        ("-v", limits.memory_mib * 1024),  # KiB
        ("-p", limits.processes),
        ("-n", limits.open_files),
        ("-f", limits.file_mib * 2048),  # 512-byte blocks
        ("-c", 0),
    ]
    script = "; ".join(f"ulimit {flag} {value}" for flag, value in bounds)
    if move_stdout:
        script += f"; exec 3>&1 1>/dev/null {SHELL_FD}</bin/sh"
    return ["/bin/sh", "-c", f'{script}; exec "$@"', "sh", *argv]


def _as_user(argv: list[str], user: int) -> list[str]:
    """As root, `argv` run as the unprivileged `user` (and group): a root-owned process ignores
    the process limit, and bubblewrap would map nobody inside to root outside."""
    if os.geteuid() != 0:
        return argv
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        raise SandboxError("setpriv (util-linux) is not installed: the sandbox cannot drop root")
    drop = [setpriv, f"--reuid={user}", f"--regid={user}", "--clear-groups", "--"]
    return drop + argv
