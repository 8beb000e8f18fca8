"""Rated ladder matches as RQ jobs: play one duplicate match (or table), rate it once.

How a match or a table is rated is `arena.services.match_ratings` (an event rated into a ladder
uses it too).

A ladder match is numbered by the ladder's sequence counter; its match id (the result id of its
rating update and the prefix of its game ids) and its job id follow from that number, so a retried
or re-enqueued job plays the same deals and can never be rated twice.
"""

from __future__ import annotations

import logging

import redis
from rq import get_current_job

from arena.games import get_game
from arena.play.match import play_match
from arena.referee.referee import FaultPolicy
from arena.services import ladder_runs, match_ratings
from arena.store import keys
from arena.store.ladders import LadderDefinition, LadderError, LadderStore
from arena.store.ratings import AnyResult, Applied, RatingStore, TableResult
from arena.tournament.lifecycle import State

log = logging.getLogger("arena.workers")


def ladder_match_id(slug: str, number: int) -> str:
    return f"{slug}.m{number}"


def match_seed(definition: LadderDefinition, number: int) -> int:
    """Each ladder match gets its own deals, fixed by the ladder's seed and the match number."""
    return definition.seed * 1_000_003 + number * 7_919


def next_match_number(client: redis.Redis, definition: LadderDefinition) -> int:
    return int(client.incr(keys.ladder_sequence(definition.ref.slug)))


def enqueue_ladder_match(
    client: redis.Redis, definition: LadderDefinition, number: int, players: tuple[str, ...]
) -> str:
    """Queue match `number` between `players` (one a side) outside any fill (a retry by
    hand); its job id."""
    return ladder_runs.queue_match(client, definition, number, players)


def play_ladder_match(slug: str, number: int, *players: str) -> dict[str, object]:
    """The RQ job: two players, or three at a table. As it ends, its bots are free and the
    ladder is filled again (`services.ladder_runs`): the pool keeps it playing."""
    job = get_current_job()
    assert job is not None, "run by an RQ worker"
    summary = play_and_rate(job.connection, slug, number, players)
    try:
        ladder_runs.match_ended(job.connection, slug, job.id)
    except Exception:  # rated already: a failed fill must not fail the match (the pool refills)
        log.exception("filling ladder %s after match %s failed", slug, number)
    return summary


def play_and_rate(
    client: redis.Redis, slug: str, number: int, players: tuple[str, ...]
) -> dict[str, object]:
    """Play the match (unless already rated) and rate it; a summary for the job's result."""
    definition = LadderStore(client).get_slug(slug)
    game = get_game(definition.ref.game)
    if game.rules_version != definition.ref.rules_version:
        raise LadderError(
            f"ladder {definition.ref} rates rules v{definition.ref.rules_version}, but this "
            f"worker's engine plays v{game.rules_version}: the match is not played"
        )
    match_id = ladder_match_id(slug, number)
    ratings = RatingStore(client)
    if ratings.is_applied(definition, match_id):
        return {"match_id": match_id, "players": list(players), "rated": False}
    if LadderStore(client).state(definition.ref) is State.STOPPED:
        return {"match_id": match_id, "players": list(players), "rated": False, "stopped": True}
    policy = FaultPolicy(
        definition.move_ms, definition.bank_ms, definition.max_strikes, definition.grace_ms
    )
    outcomes = play_match(
        client,
        game,
        definition.config,
        players,
        definition.games_per_match,
        match_seed(definition, number),
        policy,
        match_id,
        duplicate=True,
    )
    result, applied = match_ratings.rate_played(
        ratings, definition, match_id, players, outcomes, match_seed(definition, number)
    )
    return _summary(match_id, players, result, applied)


def _summary(
    match_id: str, players: tuple[str, ...], result: AnyResult, applied: Applied | None
) -> dict[str, object]:
    """What the job returns: the score (or a table's points) and the ratings it moved."""
    summary: dict[str, object] = {"match_id": match_id, "players": list(players)}
    summary["rated"] = applied is not None
    if isinstance(result, TableResult):
        scores = dict(zip(result.players, (score for _, score in result.sides), strict=True))
        summary["points"] = [scores[p] for p in players]
        if applied is not None:
            summary["ordinal"] = [applied.after[p].ordinal for p in players]
            summary["ordinal_change"] = [
                applied.after[p].ordinal - applied.before[p].ordinal for p in players
            ]
        return summary
    summary["score"] = result.score_a
    if applied is not None:
        summary["elo"] = [applied.after[p].elo for p in players]
        summary["elo_change"] = [applied.after[p].elo - applied.before[p].elo for p in players]
    return summary
