"""A program bot's process for the length of a match, and the JSON-lines protocol it speaks.

Each line is one message of `proto/arena/v1/bot.proto` in protobuf's canonical JSON mapping
(docs/program-protocol.md): the arena writes `ConnectResponse` messages to the program's stdin,
the program writes `ConnectRequest` messages to its stdout. Everything the program writes is
counted: a program past its output limit, or sending a line longer than the limit, is killed,
whole process group and PID namespace. Its stdout is read by the thread that waits for its
answer, straight from the pipe (a reader thread would add a hand-over to every decision); its
stderr by a thread of its own, so that a program logging while it is not asked is never blocked.
"""

from __future__ import annotations

import collections
import contextlib
import os
import select
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from arena import codec
from arena.hosted.jsonlines import decode_request, encode
from arena.hosted.sandbox import DEFAULT_LIMITS, MIB, Limits, launch
from arena.v1 import bot_pb2

PROTOCOL_VERSION = codec.PROTOCOL_VERSION  # the same version as the gRPC protocol's: one contract
STDERR_KEPT = 64 * 1024  # the tail of its stderr kept for the program's owner
HELLO_S = 10.0  # how long a program may take to start and say hello
EXIT_WAIT_S = 0.1  # after its output ends, how long to wait for the program's exit code
CHUNK = 65536


MATCH_OVER = "the match is over"  # `gone` of a program stopped at the end, as it should be


class ProgramGone(Exception):
    """The program exited, closed its stdout or was killed for breaching a limit."""


class Program:
    """One running program, started by `start` and stopped by `stop`."""

    def __init__(
        self,
        command: Sequence[str],
        folder: Path,
        limits: Limits = DEFAULT_LIMITS,
        sandboxed: bool = True,
        runtimes: Sequence[Path] = (),
        hello_s: float = HELLO_S,
        runtime: str | None = None,
    ) -> None:
        """`runtime`: the system runtime the sandbox shows (a manifest's; None, the whole
        system, for a command that names none)."""
        self.limits, self._hello_s = limits, hello_s
        self._launch = launch(command, folder, limits, sandboxed, runtimes, runtime=runtime)
        self._pending = bytearray()  # read from its stdout, not yet a whole line
        self._ended = False  # its stdout is closed
        self._output = select.poll()
        self._stderr: collections.deque[bytes] = collections.deque()
        self._stderr_size = 0
        self._written = 0  # bytes read from its stdout and stderr together
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._killed = False
        self._stderr_reader: threading.Thread | None = None
        self.gone: str | None = None  # why the program cannot play any more
        self.hello: bot_pb2.Hello | None = None
        self.started_s = 0.0  # from starting the sandbox to the hello, in seconds
        self._begun = 0.0  # when it was spawned (perf_counter)

    def start(self) -> None:
        """Start the program and wait for its hello; a program that fails to say it is `gone`."""
        self.spawn()
        self.greet()

    def spawn(self) -> None:
        """Start the program without waiting for it: several started side by side, then each
        greeted, take the slowest one's start rather than the sum."""
        self._begun = time.perf_counter()
        self._process = subprocess.Popen(
            self._launch.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=self._launch.cwd,
            env=self._launch.env,
            start_new_session=True,  # its own process group, killed whole
        )
        assert self._process.stdout is not None and self._process.stderr is not None
        os.set_blocking(self._process.stdout.fileno(), False)
        self._output.register(self._process.stdout, select.POLLIN)
        self._stderr_reader = threading.Thread(
            target=self._read_stderr, args=(self._process.stderr,), daemon=True
        )
        self._stderr_reader.start()

    def greet(self) -> None:
        """Wait for the spawned program's hello (up to `hello_s` from its spawn) and welcome it;
        a program that fails to say it is `gone`."""
        try:
            first = self.receive(time.monotonic() + self._hello_s - self._since_spawn())
        except ProgramGone:
            return
        except ValueError as error:
            self.kill(f"its first line is not a protocol message: {error}")
            return
        if first is None or first.WhichOneof("message") != "hello":
            self.kill("it did not start with a hello in time")
            return
        if first.hello.protocol_version != PROTOCOL_VERSION:
            self.kill(f"it speaks protocol version {first.hello.protocol_version}, not 1")
            return
        self.hello = first.hello
        self.started_s = self._since_spawn()
        welcome = bot_pb2.Welcome(protocol_version=PROTOCOL_VERSION, server_version="program")
        self.send(bot_pb2.ConnectResponse(welcome=welcome))

    @property
    def user(self) -> int | None:
        """The host user the sandbox runs as (each program its own), when it drops root."""
        return self._launch.user

    @property
    def pid(self) -> int | None:
        """The id of the process started (the sandbox's outermost one), once spawned."""
        return None if self._process is None else self._process.pid

    def _since_spawn(self) -> float:
        return time.perf_counter() - self._begun

    def send(self, message: bot_pb2.ConnectResponse) -> None:
        """Write one message; a program that stopped reading is `gone` (not an error here)."""
        if self.gone is not None or self._process is None or self._process.stdin is None:
            return
        try:
            self._process.stdin.write(encode(message))
            self._process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            self.kill("it stopped reading its input")

    def receive(self, until: float) -> bot_pb2.ConnectRequest | None:
        """The program's next message before the monotonic time `until`, or None. Raises
        ProgramGone when it can send no more, and ValueError for a line that is no message."""
        while True:
            if self.gone is not None:
                raise ProgramGone(self.gone)
            line = self._next_line()
            if line is not None:
                return decode_request(line)
            if self._ended:
                self.kill(self._exit_text())
                raise ProgramGone(self.gone)
            left = until - time.monotonic()
            if left <= 0 or not self._wait_for_output(left):
                return None

    def _next_line(self) -> bytes | None:
        """The next whole line read, blank lines passed over; kills a program whose unfinished
        line is past the limit."""
        while (end := self._pending.find(b"\n")) >= 0:
            line = bytes(self._pending[: end + 1])
            del self._pending[: end + 1]
            if line.strip():
                return line
        if len(self._pending) > self.limits.line_kib * 1024:
            self.kill(f"it sent a line longer than {self.limits.line_kib} KiB")
        return None

    def _wait_for_output(self, timeout: float) -> bool:
        """Read what the program wrote, waiting up to `timeout` for it; False when nothing
        came. The end of its output counts as something."""
        assert self._process is not None and self._process.stdout is not None
        stdout = self._process.stdout.fileno()
        if not self._output.poll(timeout * 1000):
            return False
        try:
            chunk = os.read(stdout, CHUNK)
        except BlockingIOError:
            return True
        if not chunk:
            self._ended = True
        elif self._count(len(chunk)):
            self._pending += chunk
        return True

    def _exit_text(self) -> str:
        if self.gone is not None:
            return self.gone
        try:
            code = self._process.wait(timeout=EXIT_WAIT_S) if self._process else None
        except subprocess.TimeoutExpired:
            return "it closed its output"
        if code is not None and code < 0:
            return f"it was killed by signal {signal.Signals(-code).name}"
        return f"it exited with code {code}"

    def _read_stderr(self, stream: IO[bytes]) -> None:
        while chunk := os.read(stream.fileno(), 65536):
            if not self._count(len(chunk)):
                break
            self._stderr.append(chunk)
            self._stderr_size += len(chunk)
            while self._stderr_size - len(self._stderr[0]) >= STDERR_KEPT:
                self._stderr_size -= len(self._stderr.popleft())

    def _count(self, size: int) -> bool:
        """Count `size` bytes written; False (and the program killed) past the output limit."""
        with self._lock:
            self._written += size
            over = self._written > self.limits.output_mib * MIB
        if over:
            self.kill(f"it wrote more than {self.limits.output_mib} MiB")
        return not over

    @property
    def stderr(self) -> str:
        """The tail of what the program wrote to stderr, for its owner only."""
        return b"".join(self._stderr)[-STDERR_KEPT:].decode(errors="replace")

    def kill(self, why: str) -> None:
        """Stop the program at once, every process of it, remembering why."""
        if self.gone is None:
            self.gone = why
        process = self._process
        if process is None or self._killed:
            return
        self._killed = True
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()

    def close_input(self) -> None:
        """Tell the program the match is over (its stdin ends): several told first and then
        stopped in turn exit side by side."""
        if self._process is not None and self._process.stdin is not None:
            with contextlib.suppress(OSError):
                self._process.stdin.close()

    def stop(self, grace_s: float = 0.2) -> None:
        """The match is over: close its input, give it `grace_s` to exit, then kill it."""
        process = self._process
        if process is None:
            return
        self.close_input()
        # Wait without reaping: the exited leader keeps its group id reserved until the group
        # (which may outlive it without the sandbox) is killed.
        end = time.monotonic() + grace_s
        while time.monotonic() < end and not _exited(process.pid):
            time.sleep(0.005)
        self.kill(MATCH_OVER)
        if self._stderr_reader is not None:  # what it wrote last is kept before `stop` returns
            self._stderr_reader.join(timeout=1.0)
        if process.stdout is not None:
            process.stdout.close()


def _exited(pid: int) -> bool:
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT | os.WNOHANG) is not None
    except ChildProcessError:
        return True
