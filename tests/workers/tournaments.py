"""Creating, running and reading tournaments in the worker tests."""

from __future__ import annotations

import time

import redis
from rq import SimpleWorker
from rq.serializers import JSONSerializer

from arena.services import event_runs, events
from arena.store.job_queue import QUEUE_NAME
from arena.store.results import StoredMatch
from arena.store.tournaments import Status, TournamentStore
from arena.tournament.definition import TimeControl, TournamentDefinition

FAST = TimeControl(move_ms=5000, bank_ms=5000, max_strikes=3, grace_ms=1000)


def create_and_start(
    client: redis.Redis,
    name: str,
    format: str,
    entrants: list[str],
    rounds: int | None = None,
    games_per_match: int = 2,
    seed: int = 7,
    game: str = "caper",
    city: str | None = "paris",
    players: int = 2,
) -> TournamentDefinition:
    definition = events.create(
        client, name, format, entrants, rounds, game, city, games_per_match, True, FAST, seed,
        players=players,
    )  # fmt: skip
    event_runs.start(client, name)
    return definition


def wait_until_over(client: redis.Redis, name: str, timeout_s: float = 120) -> Status:
    deadline = time.monotonic() + timeout_s
    status = TournamentStore(client).status(name)
    while status in (Status.CREATED, Status.RUNNING) and time.monotonic() < deadline:
        time.sleep(0.1)
        status = TournamentStore(client).status(name)
    return status


def work_in_process(client: redis.Redis) -> None:
    """Play every queued job in this process (RQ's forkless worker), Swiss rounds included."""
    SimpleWorker([QUEUE_NAME], connection=client, serializer=JSONSerializer).work(burst=True)


def by_place(client: redis.Redis, name: str) -> dict[tuple[int, str, str], StoredMatch]:
    """Results keyed by (round, seat0, seat1): comparable across tournaments of other names."""
    return {
        (m.result.round, m.result.seat0, m.result.seat1): m
        for m in TournamentStore(client).results(name).values()
    }


def outcome(match: StoredMatch) -> tuple[object, ...]:
    r = match.result
    return (r.game_points0, r.game_points1, r.forfeit, match.terminations, match.margin)
