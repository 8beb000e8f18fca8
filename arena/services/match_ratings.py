"""Rating a played match or table into a ladder's pool: the one rule, for ladders and events.

A two-sided match (2-player Caper, or the 4-player team game, each bot playing both seats of its
team, V11) is rated by Elo, Glicko-2 and Weng-Lin from the first player's share of the game
points. A table of three (the Snitch game, V12) is rated by Weng-Lin only, from the entrants'
placements: mean placement points over the table's games, tied entrants tied.

The result id is the match's id: `RatingStore.apply` rates an id once, so a retried job (a
ladder's or an event's) never rates twice.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from arena.games import get_game
from arena.referee.referee import GameOutcome
from arena.referee.scoring import score_entrants, score_match
from arena.referee.seats import deals, layout, lineup
from arena.store.ladders import LadderDefinition
from arena.store.ratings import AnyResult, Applied, RatedResult, RatingStore, TableResult


def rate_played(
    ratings: RatingStore,
    ladder: LadderDefinition,
    match_id: str,
    players: Sequence[str],
    outcomes: Sequence[GameOutcome],
    seed: int,
    duplicate: bool = True,
) -> tuple[AnyResult, Applied | None]:
    """Rate the games `players` played (one a side, seated by `seed` as `play_match` seats
    them) as one result of id `match_id`; the result, and what it changed (None: rated already)."""
    result = played_result(ladder, match_id, players, outcomes, seed, duplicate)
    return result, ratings.apply(ladder, result)


def played_result(
    ladder: LadderDefinition,
    match_id: str,
    players: Sequence[str],
    outcomes: Sequence[GameOutcome],
    seed: int,
    duplicate: bool = True,
) -> AnyResult:
    if ladder.tables:
        return table_result(ladder, match_id, players, outcomes, seed, duplicate)
    pair = (players[0], players[1])
    points = score_match(outcomes, pair, duplicate).game_points
    share = points[0] / (points[0] + points[1])
    return RatedResult(match_id, pair[0], pair[1], share, time.time(), len(outcomes))


def table_result(
    ladder: LadderDefinition,
    match_id: str,
    players: Sequence[str],
    outcomes: Sequence[GameOutcome],
    seed: int,
    duplicate: bool = True,
) -> TableResult:
    """The table's result: each entrant's mean placement points, (k - place) / (k - 1) (first
    1, last 0, ties share), over the seat rotations it played (`seats.deals`)."""
    rotations = deals(len(outcomes), seed, duplicate=duplicate, sides=len(players))
    lineups = [lineup(players, rotation) for _, rotation in rotations]
    seating = layout(get_game(ladder.ref.game), ladder.config)
    entrants = score_entrants([o.result for o in outcomes], lineups, seating)
    last = len(players) - 1
    sides = tuple(((e.name,), (len(players) - e.placement) / last) for e in entrants)
    return TableResult(match_id, sides, time.time(), len(outcomes))
