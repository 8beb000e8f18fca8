"""The RQ queue of the arena: one job per match, deterministic ids, JSON payloads."""

from __future__ import annotations

from collections.abc import Sequence

import redis
from rq import Callback, Queue, Retry
from rq.serializers import JSONSerializer

from arena.games import get_game
from arena.match.seats import layout
from arena.tournament import Round
from arena.tournament.definition import TournamentDefinition

QUEUE_NAME = "arena"
DECISIONS_PER_SEAT = 24  # a Caper game asks each seat at most 6 + 15 + 1 (R7) questions
RETRIES = 3


def arena_queue(client: redis.Redis) -> Queue:
    return Queue(QUEUE_NAME, connection=client, serializer=JSONSerializer)


def retry_policy() -> Retry:
    """A failed or killed match goes back to the front of the queue: behind a full queue it
    would wait for every match queued before it, minutes in a busy pool."""
    return Retry(max=RETRIES, enqueue_at_front=True)


def seated_timeout_s(games: int, seats: int, move_ms: int, bank_ms: int, grace_ms: int) -> int:
    """The longest `games` games of `seats` seats may take if every bot uses all of its time
    (and its grace after a disconnection), with a margin: a job's timeout."""
    per_seat_ms = DECISIONS_PER_SEAT * move_ms + bank_ms + grace_ms
    return int(games * seats * per_seat_ms / 1000) + 60


def job_timeout_s(definition: TournamentDefinition) -> int:
    """The longest a match may take if every bot uses all of its time, with a margin."""
    tc = definition.time_control
    seats = layout(get_game(definition.game), definition.config).seat_count
    return seated_timeout_s(definition.games_per_match, seats, tc.move_ms, tc.bank_ms, tc.grace_ms)


def match_job_id(name: str, round_number: int, board: int) -> str:
    """Unambiguous read from the right, whatever '_' the name holds."""
    return f"match_{name}_r{round_number}_b{board}"


def enqueue_round(
    client: redis.Redis,
    definition: TournamentDefinition,
    round_: Round,
    boards: Sequence[int] | None = None,
    at_front: bool = False,
) -> None:
    """One job per pairing of `round_` (or of `boards` only); a rerun of a job replays its
    match from scratch."""
    for board in range(len(round_.pairings)) if boards is None else boards:
        pairing = round_.pairings[board]
        description = (
            f"{definition.name} round {round_.number} board {board + 1}: "
            f"{pairing.seat0} vs {pairing.seat1}"
        )
        enqueue_job(client, definition, round_.number, board, description, at_front)


def enqueue_job(
    client: redis.Redis,
    definition: TournamentDefinition,
    round_number: int,
    board: int,
    description: str,
    at_front: bool = False,
) -> None:
    """The job playing board `board` of a round, a match or a table (`workers.jobs`)."""
    arena_queue(client).enqueue(
        "workers.jobs.play_tournament_match",
        args=(definition.name, round_number, board),
        job_id=match_job_id(definition.name, round_number, board),
        job_timeout=job_timeout_s(definition),
        retry=retry_policy(),
        # RQ calls it, among others, when it finds the job abandoned by a killed worker
        on_failure=Callback("workers.jobs.match_failed"),
        result_ttl=3600,
        failure_ttl=7 * 24 * 3600,
        at_front=at_front,
        description=description,
    )
