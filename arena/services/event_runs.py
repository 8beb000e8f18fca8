"""Running an event: schedule its rounds, play and record each board, advance when a round is
done. One path for pairs and tables: what depends on the number of sides a board seats is asked
of `arena.tournament.encounter` (the schedule) and `arena.store.encounters` (where it is kept).

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
from arena.referee.referee import FaultPolicy, GameOutcome
from arena.referee.scoring import score_match, score_table
from arena.referee.seats import layout
from arena.services import event_ratings
from arena.store.encounters import AnyEncounters, encounters_of
from arena.store.job_queue import enqueue_round, queue_new_round
from arena.store.results import StoredEncounter, StoredMatch, StoredTable, match_id
from arena.store.tournaments import Status, TournamentStore, TournamentStoreError
from arena.tournament import MatchResult, TournamentError
from arena.tournament.definition import Format, TournamentDefinition
from arena.tournament.encounter import (
    EventRound,
    at_tables,
    boards,
    noun,
    round_robin,
    swiss_round,
)
from arena.tournament.lifecycle import Command

log = logging.getLogger("arena.workers")


def start(client: redis.Redis, name: str) -> list[EventRound]:
    """Schedule the first round (Swiss, or pods) or every round (round robins) of a created
    event; any other state is refused, naming it. Of two starts at once, one schedules and the
    other is refused."""
    store = TournamentStore(client)
    definition = store.get(name)
    store.check(name, Command.START)  # refused before pairing, which would fail less clearly
    scheduled = first_rounds(client, definition)
    store.transition(name, Command.START)
    queue_rounds(client, definition, scheduled)
    return scheduled


def first_rounds(client: redis.Redis, definition: TournamentDefinition) -> list[EventRound]:
    """What a start schedules (deterministic: a second computation gives the same rounds)."""
    if definition.format is Format.SWISS:
        return [_next_swiss_round(client, definition, 1)]
    return round_robin(definition)


def queue_rounds(
    client: redis.Redis, definition: TournamentDefinition, scheduled: Sequence[EventRound]
) -> None:
    """Store rounds and queue their jobs; a round stored already (by a concurrent `advance`)
    is queued by whoever stored it."""
    store, count = encounters_of(client, definition), sum(len(boards(r)) for r in scheduled)
    for round_ in scheduled:
        if store.save_round(definition.name, round_):
            queue_new_round(client, definition, round_, count)


def play(
    client: redis.Redis,
    name: str,
    round_number: int,
    board: int,
    definition: TournamentDefinition | None = None,
) -> StoredEncounter:
    """Play one board of a round (`play_boards`)."""
    return play_boards(client, name, round_number, [board], definition)[0]


def play_boards(
    client: redis.Redis,
    name: str,
    round_number: int,
    wanted: Sequence[int],
    definition: TournamentDefinition | None = None,
) -> list[StoredEncounter]:
    """Play boards of a round in order, record each (once) and then advance the event if it
    can. A board recorded already is not played again: a rerun of a slice whose worker died
    goes on where it stopped. It reads only its own round and results: reading every one per
    board made an event's boards cost in proportion to its size."""
    tournaments = TournamentStore(client)
    definition = definition or tournaments.get(name)
    store = encounters_of(client, definition)
    round_ = store.round(name, round_number)
    if round_ is None:
        raise TournamentStoreError(f"{name} has no round {round_number}")
    ids = [match_id(name, round_number, board) for board in wanted]
    stored = store.results_of(name, ids)  # one round trip: a rerun skips what is recorded
    played = []
    for board, done in zip(wanted, stored, strict=True):
        if done is None and not still_running(tournaments, name):
            break
        played.append(_play_board(client, store, definition, round_, board, done))
    advance(client, name, definition)
    return played


def _play_board(
    client: redis.Redis,
    store: AnyEncounters,
    definition: TournamentDefinition,
    round_: EventRound,
    board: int,
    done: StoredEncounter | None,
) -> StoredEncounter:
    """`done`, the board's result stored already, if there is one; else play it and record it.
    The first result recorded wins: a job run twice (a retry after a lost reply, a duplicate)
    keeps it."""
    if done is not None:
        return done
    name, kind = definition.name, noun(definition)
    the_id = match_id(name, round_.number, board)
    if (attempt := TournamentStore(client).count_attempt(name, the_id)) > 1:
        log.warning("%s %s: attempt %d, replayed from scratch", kind, the_id, attempt)
    played = _play(client, definition, the_id, round_.number, board, boards(round_)[board])
    if not store.record(name, played):
        log.info("%s %s was recorded by another run; keeping that one", kind, the_id)
        played = store.result(name, the_id) or played
    return played


def still_running(store: TournamentStore, name: str) -> bool:
    """Whether an event's job may play its next board: not once the event is stopped (its
    queued jobs then do nothing; a resume queues them again)."""
    if (status := store.status(name)) is Status.RUNNING:
        return True
    log.info("tournament %s is %s: its queued matches are not played", name, status.value)
    return False


def _play(
    client: redis.Redis,
    definition: TournamentDefinition,
    the_id: str,
    round_number: int,
    board: int,
    seated: tuple[str, ...],
) -> StoredEncounter:
    tc = definition.time_control
    policy = FaultPolicy(tc.move_ms, tc.bank_ms, tc.max_strikes, tc.grace_ms)
    # Every board gets its own deals, fixed by the event's seed and its place in the draw.
    seed = definition.seed * 1_000_003 + round_number * 1009 + board
    outcomes = play_match(
        client, get_game(definition.game), definition.config, seated,
        definition.games_per_match, seed, policy, the_id, definition.duplicate,
    )  # fmt: skip
    # Rated before it is recorded, so every recorded board is rated (once per id): a job that
    # died in between replays the board, and the rating of its first play stays.
    event_ratings.rate_board(client, definition, the_id, seated, outcomes, seed)
    return _scored(definition, the_id, round_number, seated, outcomes)


def _scored(
    definition: TournamentDefinition,
    the_id: str,
    round_number: int,
    seated: tuple[str, ...],
    outcomes: Sequence[GameOutcome],
) -> StoredEncounter:
    """A pair's match score (game points, margin) or a table's placements, cards and wins."""
    game_ids = tuple(str(o.record.meta["game_id"]) for o in outcomes)
    terminations = tuple(o.termination.value for o in outcomes)
    if at_tables(definition):
        games = [(o.result, o.record.players) for o in outcomes]
        seats = layout(get_game(definition.game), definition.config)
        score = score_table(seated, games, seats, definition.duplicate)
        return StoredTable(
            the_id, round_number, score.entrants, score.points, score.cards, score.wins,
            game_ids, terminations,
        )  # fmt: skip
    pair = (seated[0], seated[1])
    match = score_match(outcomes, pair, definition.duplicate)
    result = MatchResult(round_number, *pair, *match.game_points, match.forfeit)
    return StoredMatch(the_id, result, game_ids, terminations, match.margin)


def resume(client: redis.Redis, name: str) -> int:
    """Go on with a stopped event (say, once a failing bot is fixed): every unrecorded board of
    the scheduled rounds is queued again. Recorded boards are left alone. Any other state is
    refused, naming it. Returns how many boards were queued."""
    store = TournamentStore(client)
    definition = store.get(name)
    # Running first, so that of two resumes only one queues; the liveness check takes jobs
    # that ended before this moment for the old ones they are (`TournamentStore.since`).
    store.transition(name, Command.RESUME)
    queued = _queue_unplayed(client, definition)
    advance(client, name)  # nothing left to play in the last round: pair the next one
    return queued


def _queue_unplayed(client: redis.Redis, definition: TournamentDefinition) -> int:
    store, name = encounters_of(client, definition), definition.name
    recorded = store.recorded(name)
    queued = 0
    for round_ in store.rounds(name):
        wanted = [
            board
            for board in range(len(boards(round_)))
            if match_id(name, round_.number, board) not in recorded
        ]
        enqueue_round(client, definition, round_, wanted)
        queued += len(wanted)
    return queued


def stop_after_failure(
    client: redis.Redis, name: str, round_number: int, board: int, error: Exception
) -> None:
    """A board failed on every attempt: stop the event, saying which and why, rather than leave
    it waiting forever. Nothing is scored for the board."""
    stop(
        client,
        name,
        f"match {match_id(name, round_number, board)} failed on every attempt: {error!r}",
    )


def stop(client: redis.Redis, name: str, reason: str) -> None:
    """Stop a running event that cannot go on by itself, saying why (`resume` goes on)."""
    if TournamentStore(client).try_transition(name, Command.STOP, reason):
        log.error("tournament %s stopped: %s", name, reason)


def advance(client: redis.Redis, name: str, definition: TournamentDefinition | None = None) -> None:
    """If every board so far is recorded: pair and enqueue the next Swiss round, or finish."""
    tournaments = TournamentStore(client)
    definition = definition or tournaments.get(name)
    if tournaments.status(name) is not Status.RUNNING:
        return  # stopped (or finished by another job): nothing more is queued
    store = encounters_of(client, definition)
    rounds = store.rounds(name)
    if not rounds:  # started, but its start died before storing the first rounds
        queue_rounds(client, definition, first_rounds(client, definition))
        return
    # Only scheduled boards are recorded: fewer results than boards leaves one to play.
    if store.recorded_count(name) < sum(len(boards(round_)) for round_ in rounds):
        return
    recorded = store.recorded(name)
    for round_ in rounds:
        for board in range(len(boards(round_))):
            if match_id(name, round_.number, board) not in recorded:
                return
    last = rounds[-1].number
    if last >= definition.planned_rounds:
        tournaments.try_transition(name, Command.FINISH)
        return
    try:
        next_round = _next_swiss_round(client, definition, last + 1)
    except TournamentError as error:
        stop(client, name, f"round {last + 1} cannot be paired: {error}")
        return
    if store.save_round(name, next_round):
        queue_new_round(client, definition, next_round, len(boards(next_round)))


def _next_swiss_round(
    client: redis.Redis, definition: TournamentDefinition, number: int
) -> EventRound:
    store, name = TournamentStore(client), definition.name
    history = store.event_history(definition)
    return swiss_round(definition, store.entrants(name), history, store.withdrawn(name), number)
