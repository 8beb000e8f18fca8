"""A submission's build: its build command run once, by /bin/sh in the sandbox, with its own
limits, its folder writable (and nothing else but its tmpfs), the whole system's /usr shown.
Its output (stdout and stderr together) is counted as it is read: past the limit, or past the
wall-clock time, the build is killed whole and failed. The output's tail is kept for the bot's
owner.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import os
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from arena.hosted.sandbox import MIB, NOBODY, Limits, SandboxError, launch

OUTPUT_KEPT = 16 * 1024  # bytes of the build's output kept: its end, where errors are
PROBE_LIMITS = Limits(cpu_s=5, processes=16, tmpfs_mib=1, output_mib=1)
PROBE_WAIT_S = 30.0


@dataclass(frozen=True, slots=True)
class BuildLimits:
    wall_s: float = 120.0
    sandbox: Limits = field(
        default_factory=lambda: Limits(
            cpu_s=60, memory_mib=2048, processes=64, open_files=256, file_mib=64,
            tmpfs_mib=256, output_mib=1,
        )
    )  # fmt: skip


DEFAULT_BUILD_LIMITS = BuildLimits()


@dataclass(frozen=True, slots=True)
class BuildResult:
    ok: bool
    output: str  # the end of what it printed, and why it failed
    seconds: float


class _Output:
    """What the build prints, counted, its tail kept."""

    def __init__(self, limit: int) -> None:
        self.limit, self.written, self.over = limit, 0, False
        self._chunks: collections.deque[bytes] = collections.deque()
        self._kept = 0

    def read(self, stream: IO[bytes], process: subprocess.Popen[bytes]) -> None:
        while chunk := os.read(stream.fileno(), 65536):
            self.written += len(chunk)
            self._chunks.append(chunk)
            self._kept += len(chunk)
            while self._kept - len(self._chunks[0]) >= OUTPUT_KEPT:
                self._kept -= len(self._chunks.popleft())
            if self.written > self.limit:
                self.over = True
                _kill(process)
                return

    def text(self) -> str:
        return b"".join(self._chunks)[-OUTPUT_KEPT:].decode(errors="replace")


def run_build(
    command: str, folder: Path, limits: BuildLimits = DEFAULT_BUILD_LIMITS, sandboxed: bool = True
) -> BuildResult:
    """Run `command` in `folder` (the sandbox's /bot, writable); whether it succeeded.
    SandboxError if no sandbox can start here: that is not the submission's failure."""
    if sandboxed:
        check_sandbox()
    if sandboxed and os.geteuid() == 0:
        _give_to_sandbox_user(folder)  # the build runs as nobody and writes here
    started = launch(["/bin/sh", "-c", command], folder, limits.sandbox, sandboxed, writable=True)
    begun = time.monotonic()
    process = subprocess.Popen(
        started.argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        cwd=started.cwd,
        env=started.env,
        start_new_session=True,
    )
    assert process.stdout is not None
    output = _Output(limits.sandbox.output_mib * MIB)
    reader = threading.Thread(target=output.read, args=(process.stdout, process), daemon=True)
    reader.start()
    try:
        code = process.wait(timeout=limits.wall_s)
    except subprocess.TimeoutExpired:
        code = None
    _kill(process)  # whatever it left running goes with it
    reader.join(timeout=5.0)
    process.stdout.close()
    seconds = time.monotonic() - begun
    why = _failure(code, output, limits)
    text = output.text() + (f"\nbuild failed: {why}" if why else "")
    return BuildResult(why is None, text, seconds)


def _failure(code: int | None, output: _Output, limits: BuildLimits) -> str | None:
    if output.over:
        return f"it printed more than {limits.sandbox.output_mib} MiB"
    if code is None:
        return f"it ran longer than {limits.wall_s:g} s"
    if code < 0:
        return f"it was killed by signal {signal.Signals(-code).name}"
    return None if code == 0 else f"it exited with code {code}"


def _kill(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def _give_to_sandbox_user(folder: Path) -> None:
    for path in [folder, *folder.rglob("*")]:
        os.chown(path, NOBODY, NOBODY, follow_symlinks=False)


@functools.cache
def check_sandbox() -> None:
    """Raise SandboxError unless a sandbox starts on this machine: bubblewrap may be installed
    and still be refused namespaces (a container without the rights, such as a web pod). A
    version whose build cannot start stays unbuilt for a machine that can build it, where a
    failed build would be held against it for good. Success is remembered by the process."""
    with tempfile.TemporaryDirectory(prefix="arena-sandbox-probe-") as scratch:
        folder = Path(scratch)
        folder.chmod(0o755)
        started = launch(["/bin/true"], folder, PROBE_LIMITS)
        try:
            done = subprocess.run(
                started.argv,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                cwd=started.cwd,
                env=started.env,
                timeout=PROBE_WAIT_S,
            )
        except subprocess.TimeoutExpired:
            raise SandboxError(f"the sandbox did not start within {PROBE_WAIT_S} s") from None
    if done.returncode != 0:
        said = (done.stderr or done.stdout).decode(errors="replace").strip()[-300:]
        raise SandboxError(f"the sandbox cannot start on this machine: {said or 'no reason given'}")
