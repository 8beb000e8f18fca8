"""Running a tournament of tables (games of three or more sides, the Snitch game): Swiss pods or a
round robin of tables, one RQ job per slice of a round's tables (`arena.store.job_queue`).

The guarantees are those of matches (`arena.services.event_runs`): a table's job id is fixed by its
place in the draw, its result is recorded once (first writer wins), a rerun replays it from
scratch (and skips the tables of its slice recorded already), and pairing is deterministic
from the stored history, so two jobs finishing a round together compute the same next round
and only one stores and enqueues it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import redis

from arena.games import get_game
from arena.play.match import play_match
from arena.referee.referee import FaultPolicy
from arena.referee.scoring import score_table
from arena.referee.seats import layout
from arena.services.play_once import play_once, still_running
from arena.store.job_queue import boards_named, enqueue_slices, fix_slices
from arena.store.table_rounds import StoredTable, TableStore
from arena.store.tournaments import Status, TournamentStore, TournamentStoreError, match_id
from arena.tournament import TableRound, TournamentError, pair_pods, table_round_robin
from arena.tournament.definition import Format, TournamentDefinition
from arena.tournament.lifecycle import Command

log = logging.getLogger("arena.workers")


def first_rounds(client: redis.Redis, definition: TournamentDefinition) -> list[TableRound]:
    """The first round of pods, or every round of a round robin of tables (what a start
    schedules; `event_runs.start`)."""
    if definition.format is Format.SWISS:
        return [_next_pods(client, definition, 1)]
    return table_round_robin(definition.entrants, definition.table_size, seed=definition.seed)


def queue_rounds(
    client: redis.Redis, definition: TournamentDefinition, scheduled: Sequence[TableRound]
) -> None:
    """Store rounds and queue their jobs; a round stored already is queued by whoever stored it."""
    store, boards = TableStore(client), sum(len(round_.tables) for round_ in scheduled)
    for round_ in scheduled:
        if store.save_round(definition.name, round_):
            fix_slices(client, definition, round_.number, boards)
            enqueue(client, definition, round_)


def play_boards(
    client: redis.Redis, name: str, round_number: int, boards: Sequence[int]
) -> list[StoredTable]:
    """Play tables of a round in order, record each (once), then advance the tournament if it
    can; a table recorded already is not played again."""
    tournaments, store = TournamentStore(client), TableStore(client)
    definition = tournaments.get(name)
    round_ = store.round(name, round_number)
    if round_ is None:
        raise TournamentStoreError(f"{name} has no round {round_number}")
    played = []
    for board in boards:
        if not still_running(tournaments, name):
            break
        played.append(_play_table(client, definition, round_, board))
    advance(client, name)
    return played


def _play_table(
    client: redis.Redis, definition: TournamentDefinition, round_: TableRound, board: int
) -> StoredTable:
    tournaments, store, name = TournamentStore(client), TableStore(client), definition.name
    the_id = match_id(name, round_.number, board)
    return play_once(
        "table",
        the_id,
        store.result(name, the_id),
        lambda: store.result(name, the_id),
        lambda: tournaments.count_attempt(name, the_id),
        lambda: _play(client, definition, the_id, round_.number, board, round_.tables[board]),
        lambda table: store.record(name, table),
    )


def _play(
    client: redis.Redis,
    definition: TournamentDefinition,
    the_id: str,
    round_number: int,
    board: int,
    table: Sequence[str],
) -> StoredTable:
    tc = definition.time_control
    policy = FaultPolicy(tc.move_ms, tc.bank_ms, tc.max_strikes, tc.grace_ms)
    game = get_game(definition.game)
    # Every table gets its own deals, fixed by the tournament's seed and its place in the draw.
    seed = definition.seed * 1_000_003 + round_number * 1009 + board
    outcomes = play_match(
        client, game, definition.config, table, definition.games_per_match, seed, policy,
        the_id, definition.duplicate,
    )  # fmt: skip
    games = [(o.result, o.record.players) for o in outcomes]
    score = score_table(table, games, layout(game, definition.config), definition.duplicate)
    return StoredTable(
        the_id, round_number, score.entrants, score.points, score.cards, score.wins,
        tuple(str(o.record.meta["game_id"]) for o in outcomes),
        tuple(o.termination.value for o in outcomes),
    )  # fmt: skip


def advance(client: redis.Redis, name: str) -> None:
    """If every table so far is recorded: pair and enqueue the next round of pods, or finish."""
    tournaments, store = TournamentStore(client), TableStore(client)
    definition = tournaments.get(name)
    if tournaments.status(name) is not Status.RUNNING:
        return  # stopped (or finished by another job): nothing more is queued
    rounds = store.rounds(name)
    if not rounds:  # started, but its start died before storing the first rounds
        queue_rounds(client, definition, first_rounds(client, definition))
        return
    recorded = store.recorded(name)
    if any(the_id not in recorded for the_id in table_ids(name, rounds)):
        return
    last = rounds[-1].number
    if last >= definition.planned_rounds:
        tournaments.try_transition(name, Command.FINISH)
        return
    try:
        next_round = _next_pods(client, definition, last + 1)
    except TournamentError as error:
        reason = f"round {last + 1} cannot be paired: {error}"
        if tournaments.try_transition(name, Command.STOP, reason):
            log.error("tournament %s stopped: %s", name, reason)
        return
    if store.save_round(name, next_round):
        fix_slices(client, definition, next_round.number, len(next_round.tables))
        enqueue(client, definition, next_round)


def _next_pods(client: redis.Redis, definition: TournamentDefinition, number: int) -> TableRound:
    tournaments, name = TournamentStore(client), definition.name
    return pair_pods(
        tournaments.entrants(name),
        TableStore(client).history(name),
        number,
        definition.table_size,
        withdrawn=tournaments.withdrawn(name),
    )


def table_ids(name: str, rounds: Sequence[TableRound]) -> list[str]:
    return [match_id(name, r.number, board) for r in rounds for board in range(len(r.tables))]


def places(client: redis.Redis, name: str) -> list[tuple[int, int]]:
    """(round, board) of every scheduled table."""
    return [(r.number, b) for r in TableStore(client).rounds(name) for b in range(len(r.tables))]


def queue_unplayed(client: redis.Redis, definition: TournamentDefinition) -> int:
    """Queue again every unrecorded table of the scheduled rounds; how many were queued."""
    store = TableStore(client)
    recorded = store.recorded(definition.name)
    queued = 0
    for round_ in store.rounds(definition.name):
        boards = [
            b
            for b in range(len(round_.tables))
            if match_id(definition.name, round_.number, b) not in recorded
        ]
        enqueue(client, definition, round_, boards)
        queued += len(boards)
    return queued


def enqueue(
    client: redis.Redis,
    definition: TournamentDefinition,
    round_: TableRound,
    boards: Sequence[int] | None = None,
    at_front: bool = False,
) -> None:
    """The jobs of `round_`, or of the slices holding `boards` (`queue.enqueue_slices`)."""
    tables = round_.tables

    def describe(first: int, count: int) -> str:
        seated = "; ".join(", ".join(table) for table in tables[first : first + count])
        named = boards_named(first, count, "table")
        return f"{definition.name} round {round_.number} {named}: {seated}"

    wanted = range(len(tables)) if boards is None else boards
    enqueue_slices(client, definition, round_.number, len(tables), wanted, describe, at_front)


def enqueue_places(
    client: redis.Redis, definition: TournamentDefinition, round_number: int, boards: list[int]
) -> None:
    """Queue the tables of `boards` again, at the front (their jobs were lost)."""
    round_ = next(r for r in TableStore(client).rounds(definition.name) if r.number == round_number)
    enqueue(client, definition, round_, boards, at_front=True)
