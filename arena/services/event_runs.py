"""Running a tournament: schedule rounds, play and record matches, advance when a round is done.

Every step is idempotent, because jobs are retried and may run twice: a round is stored once
(first writer wins), a result is recorded once, and pairing is deterministic, so two workers
finishing a round together compute the same next round and only one stores and enqueues it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import redis

from arena.games import get_game
from arena.play.match import play_match
from arena.referee.referee import FaultPolicy
from arena.referee.scoring import score_match
from arena.services import table_runs
from arena.services.play_once import play_once, still_running
from arena.store.job_queue import enqueue_round, queue_new_round
from arena.store.tournaments import (
    Status,
    StoredMatch,
    TournamentStore,
    TournamentStoreError,
    match_id,
)
from arena.tournament import (
    MatchResult,
    Round,
    SwissOptions,
    TableRound,
    TournamentError,
    berger_rounds,
    pair_round,
)
from arena.tournament.definition import Format, TournamentDefinition
from arena.tournament.lifecycle import Command

log = logging.getLogger("arena.workers")


def start(client: redis.Redis, name: str) -> list[Round] | list[TableRound]:
    """Schedule the first round (Swiss) or every round (round robins) of a created tournament;
    any other state is refused, naming it. Of two starts at once, one schedules and the other
    is refused. A game of three or more sides is played at tables (`arena.services.table_runs`)."""
    store = TournamentStore(client)
    definition = store.get(name)
    store.check(name, Command.START)  # refused before pairing, which would fail less clearly
    scheduled = first_rounds(client, definition)
    store.transition(name, Command.START)
    queue_first_rounds(client, definition, scheduled)
    return scheduled


def first_rounds(
    client: redis.Redis, definition: TournamentDefinition
) -> list[Round] | list[TableRound]:
    """What a start schedules (deterministic: a second computation gives the same rounds)."""
    if definition.table_size:
        return table_runs.first_rounds(client, definition)
    if definition.format is Format.SWISS:
        return [_next_swiss_round(TournamentStore(client), definition, 1)]
    return berger_rounds(definition.entrants, double=definition.format is Format.DOUBLE_ROUND_ROBIN)


def queue_first_rounds(
    client: redis.Redis, definition: TournamentDefinition, scheduled: list[Round] | list[TableRound]
) -> None:
    """Store the first rounds and queue their jobs; a round stored already (by a concurrent
    `advance`) is queued by whoever stored it."""
    if definition.table_size:
        table_runs.queue_rounds(
            client, definition, [r for r in scheduled if isinstance(r, TableRound)]
        )
        return
    store, rounds = TournamentStore(client), [r for r in scheduled if isinstance(r, Round)]
    boards = sum(len(round_.pairings) for round_ in rounds)
    for round_ in rounds:
        if store.save_round(definition.name, round_):
            queue_new_round(client, definition, round_, boards)


def play(
    client: redis.Redis,
    name: str,
    round_number: int,
    board: int,
    definition: TournamentDefinition | None = None,
) -> StoredMatch:
    """Play one pairing of a round (`play_boards`)."""
    return play_boards(client, name, round_number, [board], definition)[0]


def play_boards(
    client: redis.Redis,
    name: str,
    round_number: int,
    boards: Sequence[int],
    definition: TournamentDefinition | None = None,
) -> list[StoredMatch]:
    """Play pairings of a round in order, record each (once) and then advance the tournament
    if it can. A match recorded already is not played again: a rerun of a slice whose worker
    died goes on where it stopped. It reads only its own round and results: reading every one
    per match made a tournament's matches cost in proportion to its size."""
    store = TournamentStore(client)
    definition = definition or store.get(name)
    round_ = store.round(name, round_number)
    if round_ is None:
        raise TournamentStoreError(f"{name} has no round {round_number}")
    ids = [match_id(name, round_number, board) for board in boards]
    stored = store.results_of(name, ids)  # one round trip: a rerun skips what is recorded
    played = []
    for board, done in zip(boards, stored, strict=True):
        if done is None and not still_running(store, name):
            break
        played.append(_play_board(client, store, definition, round_, board, done))
    advance(client, name, definition)
    return played


def _play_board(
    client: redis.Redis,
    store: TournamentStore,
    definition: TournamentDefinition,
    round_: Round,
    board: int,
    done: StoredMatch | None,
) -> StoredMatch:
    name = definition.name
    the_id = match_id(name, round_.number, board)
    return play_once(
        "match",
        the_id,
        done,
        lambda: store.result(name, the_id),
        lambda: store.count_attempt(name, the_id),
        lambda: _play(
            client, definition, the_id, round_.number, board, round_.pairings[board].entrants
        ),
        lambda match: store.record(name, match),
    )


def _play(
    client: redis.Redis,
    definition: TournamentDefinition,
    the_id: str,
    round_number: int,
    board: int,
    players: tuple[str, str],
) -> StoredMatch:
    tc = definition.time_control
    policy = FaultPolicy(tc.move_ms, tc.bank_ms, tc.max_strikes, tc.grace_ms)
    # Every match gets its own deals, fixed by the tournament's seed and its place in the draw.
    seed = definition.seed * 1_000_003 + round_number * 1009 + board
    outcomes = play_match(
        client,
        get_game(definition.game),
        definition.config,
        players,
        definition.games_per_match,
        seed,
        policy,
        the_id,
        definition.duplicate,
    )
    score = score_match(outcomes, players, definition.duplicate)
    result = MatchResult(round_number, players[0], players[1], *score.game_points, score.forfeit)
    return StoredMatch(
        the_id,
        result,
        tuple(str(o.record.meta["game_id"]) for o in outcomes),
        tuple(o.termination.value for o in outcomes),
        score.margin,
    )


def resume(client: redis.Redis, name: str) -> int:
    """Go on with a stopped tournament (say, once a failing bot is fixed): every unrecorded
    match of the scheduled rounds is queued again. Recorded matches are left alone. Any other
    state is refused, naming it. Returns how many matches were queued."""
    store = TournamentStore(client)
    definition = store.get(name)
    # Running first, so that of two resumes only one queues; the liveness check takes jobs
    # that ended before this moment for the old ones they are (`TournamentStore.since`).
    store.transition(name, Command.RESUME)
    queued = (
        table_runs.queue_unplayed(client, definition)
        if definition.table_size
        else _queue_unplayed(client, definition)
    )
    advance(client, name)  # nothing left to play in the last round: pair the next one
    return queued


def _queue_unplayed(client: redis.Redis, definition: TournamentDefinition) -> int:
    store, name = TournamentStore(client), definition.name
    recorded = store.recorded(name)
    queued = 0
    for round_ in store.rounds(name):
        boards = [
            board
            for board in range(len(round_.pairings))
            if match_id(name, round_.number, board) not in recorded
        ]
        enqueue_round(client, definition, round_, boards)
        queued += len(boards)
    return queued


def stop_after_failure(
    client: redis.Redis, name: str, round_number: int, board: int, error: Exception
) -> None:
    """A match (or table) failed on every attempt: stop the tournament, saying which and why, rather
    than leave it waiting forever. Nothing is scored for the match."""
    stop(
        client,
        name,
        f"match {match_id(name, round_number, board)} failed on every attempt: {error!r}",
    )


def stop(client: redis.Redis, name: str, reason: str) -> None:
    """Stop a running tournament that cannot go on by itself, saying why (`resume` goes on)."""
    if TournamentStore(client).try_transition(name, Command.STOP, reason):
        log.error("tournament %s stopped: %s", name, reason)


def advance(client: redis.Redis, name: str, definition: TournamentDefinition | None = None) -> None:
    """If every match so far is recorded: pair and enqueue the next Swiss round, or finish."""
    store = TournamentStore(client)
    definition = definition or store.get(name)
    if store.status(name) is not Status.RUNNING:
        return  # stopped (or finished by another job): nothing more is queued
    if definition.table_size:
        table_runs.advance(client, name)
        return
    rounds = store.rounds(name)
    if not rounds:  # started, but its start died before storing the first rounds
        queue_first_rounds(client, definition, first_rounds(client, definition))
        return
    # Only scheduled matches are recorded: fewer results than pairings leaves one to play.
    if store.recorded_count(name) < sum(len(round_.pairings) for round_ in rounds):
        return
    recorded = store.recorded(name)
    for round_ in rounds:
        for board in range(len(round_.pairings)):
            if match_id(name, round_.number, board) not in recorded:
                return
    last = rounds[-1].number
    if last >= definition.planned_rounds:
        store.try_transition(name, Command.FINISH)
        return
    try:
        next_round = _next_swiss_round(store, definition, last + 1)
    except TournamentError as error:
        stop(client, name, f"round {last + 1} cannot be paired: {error}")
        return
    if store.save_round(name, next_round):
        queue_new_round(client, definition, next_round, len(next_round.pairings))


def _next_swiss_round(
    store: TournamentStore, definition: TournamentDefinition, number: int
) -> Round:
    name = definition.name
    options = SwissOptions(
        total_rounds=definition.rounds,
        duplicate=definition.duplicate,
        withdrawn=store.withdrawn(name),
        bye_points=definition.bye_points,
        system=definition.swiss_system,
    )
    return pair_round(store.entrants(name), store.history(name), number, options)
