"""`--watch` without a terminal (piped, logged): plain progress lines, from the start and every
few seconds, and a last one when the tournament ends; a live bar would show nothing."""

from __future__ import annotations

import io

import pytest
import redis
from rich.console import Console

from arena.cli import tournament_watch
from arena.store.tournaments import Status
from tests.workers.tournaments import create_and_start, work_in_process


def piped() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=200), out


def test_a_tournament_in_play_gets_a_line_every_few_seconds(
    redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tournament_watch, "PLAIN_LINE_S", 0.3)
    create_and_start(redis_client, "cup", "swiss", ["random", "greedy", "search#4", "search#8"])
    console, out = piped()  # no worker: the tournament stays at its first round
    assert tournament_watch.watch(console, redis_client, "cup", timeout_s=1.5) is Status.RUNNING
    lines = out.getvalue().splitlines()
    assert len(lines) >= 3, lines
    for line in lines:
        assert line.startswith("cup: round 1 of 2, 0/2 matches recorded, running, 0:0"), lines


def test_an_ended_tournament_gets_its_last_line(redis_client: redis.Redis) -> None:
    create_and_start(redis_client, "cup", "round-robin", ["random", "greedy", "search#4"])
    work_in_process(redis_client)
    console, out = piped()
    assert tournament_watch.watch(console, redis_client, "cup", timeout_s=30) is Status.FINISHED
    assert out.getvalue().splitlines() == [
        "cup: round 3 of 3, 3/3 matches recorded, finished, 0:00 elapsed"
    ]
