"""Head to head: every match two bots played against each other, in events and on ladders, with
the first's score and the Elo difference it implies, with an interval.

A match is scored in points (`arena.referee.scoring.score_match`): one a game, or with duplicate
deals one a deal (its two games, seats swapped), 1, 1/2 or 0 to a side. The Elo difference is
that of the first bot's share of the points over every match played (forfeits, never played,
are listed but not counted), with the 95 % Wilson interval of the share (`arena.stats`) mapped
through the Elo curve (`arena.ratings.elo_difference`): asymmetric, infinite at a share of 0 or
1. The interval takes each point for a win or a loss, the most spread a share can have, so
drawn points only make it wider than it need be: it never claims more than the games show.

Only two-sided matches count: an event or ladder played at tables of three or more holds no
result of one bot against one other. An event's matches are found in its pairings and only
their results read; a ladder's in the first bot's rating history there (one entry a rated
match, naming its opponent), not by reading the whole log.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import redis

from arena.ratings import EloInterval, elo_difference
from arena.stats import proportion_ci
from arena.store.ladders import LadderDefinition, LadderError, LadderStore
from arena.store.ratings import RatedResult, RatingStore
from arena.store.results import StoredMatch, match_id
from arena.store.tournaments import TournamentStore
from arena.tournament.encounter import at_tables

TOURNAMENT = "tournament"
LADDER = "ladder"


@dataclass(frozen=True, slots=True)
class Meeting:
    """One match between the two bots, from the first one's side."""

    kind: str  # TOURNAMENT or LADDER
    where: str  # the tournament's name or the ladder's slug
    label: str  # "round 3", "match 17"
    points: float  # the first bot's points
    against: float  # the second bot's points
    games: int
    game_id: str  # its first game, "" if none was played
    forfeit: bool = False  # never played: listed, not counted
    match: str = ""  # the match's id: a rated event's match is in its ladder too, counted once


@dataclass(frozen=True, slots=True)
class HeadToHead:
    first: str
    second: str
    meetings: tuple[Meeting, ...]  # tournaments by name and round, then ladders by match

    @property
    def played(self) -> tuple[Meeting, ...]:
        return tuple(m for m in self.meetings if not m.forfeit)

    @property
    def points(self) -> float:
        """The first bot's points over the matches played."""
        return sum(m.points for m in self.played)

    @property
    def at_stake(self) -> float:
        return sum(m.points + m.against for m in self.played)

    @property
    def games(self) -> int:
        return sum(m.games for m in self.played)

    def elo(self) -> EloInterval | None:
        """The first bot's Elo over the second's, with its 95 % interval; None before a point."""
        total = self.at_stake
        if not total:
            return None
        # Points are whole or half: the share's sample is the number of points at stake.
        share = proportion_ci(self.points, math.ceil(total))
        ends = (elo_difference(share.value), elo_difference(share.low), elo_difference(share.high))
        return EloInterval(*ends, samples=math.ceil(total))


def head_to_head(client: redis.Redis, first: str, second: str) -> HeadToHead:
    """Every match between `first` and `second` (any names: registered bots, built-in specs);
    refuses a bot against itself or an empty name."""
    first, second = first.strip(), second.strip()
    if not first or not second:
        raise ValueError("name two bots to compare")
    if first == second:
        raise ValueError(f"{first} never plays itself: name two different bots")
    in_events = list(_tournament_meetings(client, first, second))
    counted = {meeting.match for meeting in in_events}
    on_ladders = [
        meeting
        for meeting in _ladder_meetings(client, first, second)
        if meeting.match not in counted  # a rated event's match, rated on a ladder too
    ]
    return HeadToHead(first, second, (*in_events, *on_ladders))


def _tournament_meetings(client: redis.Redis, first: str, second: str) -> Iterator[Meeting]:
    store = TournamentStore(client)
    for name in store.names():
        if at_tables(store.get(name)) or not {first, second} <= set(store.entrants(name)):
            continue
        # The pairings say where they met: only those results are read, not the event's all.
        met = [
            match_id(name, r.number, board)
            for r in store.rounds(name)
            for board, pairing in enumerate(r.pairings)
            if {first, second} == set(pairing.entrants)
        ]
        for match in store.results_of(name, met):
            if match is not None:  # not played yet
                yield _from_match(name, match, first)


def _from_match(name: str, match: StoredMatch, first: str) -> Meeting:
    r = match.result
    points = (r.game_points0, r.game_points1)
    mine = 0 if r.seat0 == first else 1
    first_game = match.game_ids[0] if match.game_ids else ""
    return Meeting(
        TOURNAMENT, name, f"round {r.round}", points[mine], points[1 - mine],
        len(match.game_ids), first_game, r.forfeit, match.match_id,
    )  # fmt: skip


def _ladder_meetings(client: redis.Redis, first: str, second: str) -> Iterator[Meeting]:
    ratings = RatingStore(client)
    for ladder in LadderStore(client).all():
        if ladder.tables:
            continue
        try:
            history = ratings.history(ladder, first)
        except LadderError:  # no rated result there
            continue
        positions = [int(e["position"]) for e in history if e["opponent"] == second]
        for position, result in ratings.results_at(ladder, positions).items():
            if isinstance(result, RatedResult):
                yield _from_result(ladder, position, result, first)


def _from_result(
    ladder: LadderDefinition, position: int, result: RatedResult, first: str
) -> Meeting:
    # Ladder matches are played with duplicate deals: a point a deal, its last maybe one game.
    at_stake = math.ceil(result.games / 2)
    share = result.score_a if result.player_a == first else 1.0 - result.score_a
    points = round(share * at_stake * 2) / 2  # whole or half points: no float residue
    return Meeting(
        LADDER, ladder.ref.slug, f"match {position + 1}", points, at_stake - points,
        result.games, f"{result.result_id}.g0", match=result.result_id,
    )  # fmt: skip


def elo_text(found: HeadToHead) -> str:
    """The Elo difference as the head-to-head page says it, the first bot minus the second."""
    elo = found.elo()
    if elo is None:
        return "none yet (no match played)"
    low, high = f"{elo.low:+.0f}", f"{elo.high:+.0f}"
    if math.isinf(elo.elo):
        bound = f"at least {low}" if elo.elo > 0 else f"at most {high}"
        return f"{bound} (95% bound: every point went to one side)"
    return f"{elo.elo:+.0f} (95% interval {low} to {high})"
