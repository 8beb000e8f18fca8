"""Test helpers: write a Python program bot to a folder the sandbox's user can read, and play
games against a built-in bot with it under a short time control."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import redis

from arena.bots import make_bot
from arena.games import base_config, get_game
from arena.hosted.program import Program
from arena.hosted.sandbox import Limits
from arena.hosted.seat import ProgramSeat
from arena.play.hosted_versions import CACHE_ENV
from arena.referee.referee import BuiltinSeat, FaultPolicy, GameOutcome, Seat, referee_game
from arena.services import bots, hosted

# The prelude every test program starts with: hello, then `act(request)` for each decision
# (its answer is the reply, None for none) and `on(message)` for every message.
PRELUDE = """
import json, os, sys, time
def send(message):
    sys.stdout.write(json.dumps(message) + "\\n")
    sys.stdout.flush()
def log(*words):
    print(*words, file=sys.stderr, flush=True)
def on(message):
    pass
def reply(request, index=0):
    return {"actionReply": {"requestId": request["requestId"], "legalIndex": index}}
"""
MAIN = """
send({"hello": {"protocolVersion": 1, "games": ["caper"]}})
for line in sys.stdin:
    message = json.loads(line)
    on(message)
    if "decisionRequest" in message:
        answer = act(message["decisionRequest"])
        if answer is not None:
            send(answer)
"""
PLAIN = "def act(request):\n    return reply(request)\n"
TEST_LIMITS = Limits(cpu_s=3, memory_mib=512, processes=32, tmpfs_mib=4, output_mib=1)
TEST_POLICY = FaultPolicy(move_ms=300, bank_ms=0, max_strikes=2, grace_ms=0)
# What `play` judges by: a program that answers is never struck, however loaded the machine (a
# slow answer draws on the bank); one that never answers still forfeits on its strikes.
PATIENT_POLICY = FaultPolicy(move_ms=300, bank_ms=60_000, max_strikes=2, grace_ms=0)
# Every program `running` started, for a test's checks that none of them is left behind.
STARTED: list[Program] = []


@contextmanager
def program_folder(body: str) -> Iterator[Path]:
    """A folder holding bot.py (the prelude, `body`, the main loop), readable by nobody."""
    folder = Path(tempfile.mkdtemp(prefix="arena-program-"))
    try:
        folder.chmod(0o755)
        (folder / "bot.py").write_text(PRELUDE + body + MAIN)
        (folder / "bot.py").chmod(0o644)
        yield folder
    finally:
        shutil.rmtree(folder)


@contextmanager
def running(
    body: str, limits: Limits = TEST_LIMITS, sandboxed: bool = True, hello_s: float = 30.0
) -> Iterator[Program]:
    with program_folder(body) as folder:
        program = Program(
            ["python3", "bot.py"], folder, limits, sandboxed, hello_s=hello_s, runtime="python"
        )
        STARTED.append(program)
        try:
            program.start()
            yield program
        finally:
            program.stop()


def play(
    program: Program, seed: int = 1, seat: int = 0, policy: FaultPolicy = PATIENT_POLICY
) -> GameOutcome:
    """One 2-player Caper game, `program` in `seat`, the random bot in the other."""
    game = get_game("caper")
    config = base_config("caper", None, 2)
    seats: list[Seat] = [BuiltinSeat(make_bot("random"), game, seed, 1 - seat)]
    seats.insert(seat, ProgramSeat(program, "program", game))
    return referee_game(
        game, config, seed, seats, policy, game_id=f"g{seed}", timer=time.perf_counter
    )


@contextmanager
def version_cache() -> Iterator[Path]:
    """A cache of unpacked hosted versions that the sandbox's user can reach (pytest's own
    folders are private to root), set as the arena's for the duration."""
    folder = Path(tempfile.mkdtemp(prefix="arena-hosted-test-"))
    folder.chmod(0o755)
    before = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = str(folder)
    try:
        yield folder
    finally:
        if before is None:
            del os.environ[CACHE_ENV]
        else:
            os.environ[CACHE_ENV] = before
        shutil.rmtree(folder)


def submit_program(client: redis.Redis, name: str, body: str, folder: Path) -> None:
    """Register bot `name` and submit the Python program `body` (prelude and main loop added)
    as its hosted version."""
    folder.mkdir(parents=True)
    (folder / "arena-bot.toml").write_text('command = "python3 bot.py"\nruntime = "python"\n')
    (folder / "bot.py").write_text(PRELUDE + body + MAIN)
    _, token = bots.register(client, name)
    hosted.submit(client, name, folder, token, None)
