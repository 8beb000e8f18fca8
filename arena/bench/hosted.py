"""`arena bench hosted`: a program bot's costs. The sandbox's start to the program's hello, and a
decision's round trip over stdio with the arena's CPU per decision, next to built-in bots."""

from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from arena.bots import make_bot
from arena.games import base_config, get_game
from arena.hosted.program import Program
from arena.hosted.seat import ProgramSeat
from arena.play.texts import ACTION_TEXTS
from arena.referee.referee import BuiltinSeat, FaultPolicy, Seat, referee_game

# A random bot in plain Python: what the sandbox's system Python runs with no packages.
RANDOM_PROGRAM = """import json, random, sys
out = sys.stdout
out.write('{"hello":{"protocolVersion":1,"games":["caper"]}}\\n'); out.flush()
for line in sys.stdin:
    request = json.loads(line).get("decisionRequest")
    if request:
        index = random.randrange(len(request["legalActions"]))
        out.write(json.dumps({"actionReply": {"requestId": request["requestId"],
                                              "legalIndex": index}}) + "\\n")
        out.flush()
"""
POLICY = FaultPolicy(move_ms=1000, bank_ms=10_000, max_strikes=3)


@contextmanager
def program_folder() -> Iterator[Path]:
    """A folder with the random program, readable by the sandbox's user."""
    folder = Path(tempfile.mkdtemp(prefix="arena-bench-"))
    try:
        folder.chmod(0o755)
        (folder / "bot.py").write_text(RANDOM_PROGRAM)
        (folder / "bot.py").chmod(0o644)
        yield folder
    finally:
        shutil.rmtree(folder)


# The least a program can be: a shell that says hello and reads to the end. Its start is the
# sandbox's own cost, apart from a runtime's (Python's imports).
SHELL_PROGRAM = ["/bin/sh", "-c", 'echo \'{"hello":{"protocolVersion":1}}\'; exec cat >/dev/null']
PYTHON_PROGRAM = ["/usr/bin/python3", "bot.py"]


def start_ms(
    folder: Path, sandboxed: bool, starts: int, command: list[str], runtime: str | None
) -> float:
    """The median time from starting the program to reading its hello, in ms."""
    times = []
    for _ in range(starts):
        program = Program(command, folder, sandboxed=sandboxed, runtime=runtime)
        program.start()
        times.append(program.started_s * 1000)
        program.stop()
    return statistics.median(times)


def play_games(games: int, program: Program | None) -> tuple[list[float], float, int]:
    """Seat 0's decision times (ms), the arena's CPU seconds and every decision, over `games`
    Caper games of seat 0 (the program, else the built-in random bot) against random."""
    game, config = get_game("caper"), base_config("caper", None, 2)
    latencies: list[float] = []
    decisions = 0
    cpu = time.process_time()
    for seed in range(games):
        first: Seat = (
            ProgramSeat(program, "program", game)
            if program
            else BuiltinSeat(make_bot("random"), game, seed, 0)
        )
        seats = [first, BuiltinSeat(make_bot("random"), game, seed, 1)]
        outcome = referee_game(
            game,
            config,
            seed,
            seats,
            POLICY,
            game_id=f"bench-{seed}",
            timer=time.perf_counter,
            texts=ACTION_TEXTS,
        )
        latencies += outcome.latencies_ms[0]
        decisions += sum(len(seat) for seat in outcome.latencies_ms)
    return latencies, time.process_time() - cpu, decisions


def run(report: Callable[[str], object], starts: int, games: int) -> None:
    with program_folder() as folder:
        # The python runtime's system, as a manifest asks for it; the shell sees the whole one.
        for label, command, runtime in (
            ("/usr/bin/python3", PYTHON_PROGRAM, "python"),
            ("/bin/sh", SHELL_PROGRAM, None),
        ):
            for sandboxed in (True, False):
                where = "sandboxed" if sandboxed else "no sandbox"
                started = start_ms(folder, sandboxed, starts, command, runtime)
                report(
                    f"start to first message ({where}, {label}): p50 {started:.1f} ms over "
                    f"{starts} starts"
                )
        program = Program(PYTHON_PROGRAM, folder, runtime="python")
        program.start()
        try:
            rows = [("program over stdio", play_games(games, program))]
        finally:
            program.stop()
        rows.append(("built-in random", play_games(games, None)))
    for label, (latencies, cpu_s, decisions) in rows:
        report(
            f"{label}: decision p50 {statistics.median(latencies):.3f} ms, "
            f"p99 {statistics.quantiles(latencies, n=100)[98]:.3f} ms; arena CPU "
            f"{cpu_s / decisions * 1e6:.0f} us per decision (both seats and the engine, "
            f"{decisions} decisions in {games} games)"
        )
