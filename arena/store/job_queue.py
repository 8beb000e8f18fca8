"""The RQ queue of the arena: one job per slice of a round's boards (matches or tables),
deterministic ids, JSON payloads."""

from __future__ import annotations

from collections.abc import Iterable

import redis
from rq import Callback, Queue, Retry, Worker
from rq.job import Job
from rq.serializers import JSONSerializer

from arena.games import get_game
from arena.referee.seats import layout
from arena.store.job_slices import JobSlices
from arena.tournament.definition import TournamentDefinition
from arena.tournament.encounter import EventRound, boards, describe_boards

QUEUE_NAME = "arena"
DECISIONS_PER_SEAT = 24  # a Caper game asks each seat at most 6 + 15 + 1 (R7) questions
RETRIES = 3
# A job's own cost (RQ's bookkeeping: some 30 round trips) is paid once for a slice of a round's
# matches: at 4 games a match it cost more than the games when paid per match.
JOB_GAMES = 64
JOBS_PER_WORKER = 2  # slices small enough that no worker waits while another plays a long one


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


def job_timeout_s(definition: TournamentDefinition, matches: int = 1) -> int:
    """The longest `matches` matches may take if every bot uses all of its time, with a margin."""
    tc = definition.time_control
    seats = layout(get_game(definition.game), definition.config).seat_count
    games = definition.games_per_match * matches
    return seated_timeout_s(games, seats, tc.move_ms, tc.bank_ms, tc.grace_ms)


def boards_per_job(games_per_match: int, boards: int, workers: int) -> int:
    """How many boards (matches) of a round one job plays: enough for JOB_GAMES games, while
    the `boards` queued together still make JOBS_PER_WORKER jobs for each of the `workers`."""
    enough = -(-JOB_GAMES // max(games_per_match, 1))
    spread = -(-boards // (JOBS_PER_WORKER * max(workers, 1)))
    return max(1, min(enough, spread))


def match_job_id(name: str, round_number: int, board: int) -> str:
    """The id of the job playing `board` first; unambiguous read from the right, whatever '_'
    the name holds."""
    return f"match_{name}_r{round_number}_b{board}"


def job_place(job: Job) -> tuple[str, int, int, int]:
    """(tournament, round, first board, boards) of a match job; jobs queued before jobs played
    slices of a round have no count: one board."""
    name, round_number, board, *count = job.args
    return name, round_number, board, count[0] if count else 1


def slice_start(board: int, size: int) -> int:
    return board - board % size


def fix_slices(
    client: redis.Redis, definition: TournamentDefinition, round_number: int, queued_with: int
) -> None:
    """Fix, for good, how many boards a job of a round just stored plays, `queued_with` boards
    being queued at the same time (the whole schedule of a round robin)."""
    workers = Worker.count(connection=client, queue=arena_queue(client))
    size = boards_per_job(definition.games_per_match, queued_with, workers)
    JobSlices(client).fix(definition.name, round_number, size)


def queue_new_round(
    client: redis.Redis, definition: TournamentDefinition, round_: EventRound, queued_with: int
) -> None:
    """The jobs of a round just stored (`fix_slices`)."""
    fix_slices(client, definition, round_.number, queued_with)
    enqueue_round(client, definition, round_)


def enqueue_round(
    client: redis.Redis,
    definition: TournamentDefinition,
    round_: EventRound,
    wanted: Iterable[int] | None = None,
    at_front: bool = False,
) -> None:
    """The jobs of the slices of `round_` that hold one of the `wanted` boards (all of them if
    None): each plays its slice in order, skipping what is recorded already, so a rerun
    replays only what is left. Its description says who sits at its boards, for RQ's tools."""
    seated = boards(round_)
    size = JobSlices(client).size(definition.name, round_.number)
    wanted = range(len(seated)) if wanted is None else wanted
    for first in sorted({slice_start(board, size) for board in wanted}):
        count = min(size, len(seated) - first)
        shown = describe_boards(definition, seated, first, count)
        description = f"{definition.name} round {round_.number} {shown}"
        _enqueue_job(client, definition, round_.number, first, description, at_front, count)


def _enqueue_job(
    client: redis.Redis,
    definition: TournamentDefinition,
    round_number: int,
    board: int,
    description: str,
    at_front: bool = False,
    count: int = 1,
) -> None:
    """The job playing `count` boards of a round from `board` on, matches or tables
    (`workers.jobs`)."""
    arena_queue(client).enqueue(
        "workers.jobs.play_tournament_match",
        args=(definition.name, round_number, board, count),
        job_id=match_job_id(definition.name, round_number, board),
        job_timeout=job_timeout_s(definition, count),
        retry=retry_policy(),
        # RQ calls it, among others, when it finds the job abandoned by a killed worker
        on_failure=Callback("workers.jobs.match_failed"),
        result_ttl=3600,
        failure_ttl=7 * 24 * 3600,
        at_front=at_front,
        description=description,
    )
