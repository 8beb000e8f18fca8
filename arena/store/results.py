"""What an event stores of its encounters: each round (its boards and byes) and each board's
result, as JSON, for pairs and tables alike (`arena.store.encounters` keeps them).

A pair's result is a `StoredMatch` (the maths' `MatchResult` and where its games are), a
table's a `StoredTable` (each entrant's game points, card points and wins in seat order): the
two kinds of result are scored and ranked differently, so each keeps its own fields, but both
answer the questions every reader asks (`encounter_id`, `round_number`, `entrants`, `points`,
`game_ids`, `terminations`, `forfeit`, `recent_entry`).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass

from arena.store import recent
from arena.tournament import Bye, ByeKind, MatchResult, Pairing, Round, TableResult, TableRound
from arena.tournament.encounter import EventRound


def match_id(name: str, round_number: int, board: int) -> str:
    """The id of board `board` of a round, a pair's or a table's."""
    return f"{name}.r{round_number}.b{board}"


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """A played match: the maths' `MatchResult` plus where its games are."""

    match_id: str
    result: MatchResult
    game_ids: tuple[str, ...]
    terminations: tuple[str, ...]
    margin: int  # card points of seat0's entrant minus seat1's, over all games

    @property
    def encounter_id(self) -> str:
        return self.match_id

    @property
    def round_number(self) -> int:
        return self.result.round

    @property
    def entrants(self) -> tuple[str, ...]:
        return self.result.entrants

    @property
    def points(self) -> tuple[float, ...]:
        return (self.result.game_points0, self.result.game_points1)

    @property
    def forfeit(self) -> bool:
        return self.result.forfeit

    def to_json(self) -> str:
        r = self.result
        return json.dumps(
            {
                "match_id": self.match_id,
                "round": r.round,
                "seat0": r.seat0,
                "seat1": r.seat1,
                "game_points": [r.game_points0, r.game_points1],
                "forfeit": r.forfeit,
                "game_ids": list(self.game_ids),
                "terminations": list(self.terminations),
                "margin": self.margin,
            }
        )

    def recent_entry(self, name: str, at: float | None = None) -> recent.RecentEntry:
        """The match as its players' recent-matches lists hold it, recorded `at` (None: now)."""
        return recent.tournament_entry(
            name, self.round_number, self.entrants, self.points, self.game_ids, at
        )

    @classmethod
    def from_json(cls, text: str) -> StoredMatch:
        d = json.loads(text)
        points = d["game_points"]
        result = MatchResult(d["round"], d["seat0"], d["seat1"], points[0], points[1], d["forfeit"])
        return cls(
            d["match_id"], result, tuple(d["game_ids"]), tuple(d["terminations"]), d["margin"]
        )


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A played table: each entrant's game points (what places it), card points and wins, in
    seat order, and where its games are."""

    table_id: str
    round: int
    entrants: tuple[str, ...]
    points: tuple[float, ...]
    cards: tuple[int, ...]
    wins: tuple[int, ...]
    game_ids: tuple[str, ...]
    terminations: tuple[str, ...]

    @property
    def encounter_id(self) -> str:
        return self.table_id

    @property
    def round_number(self) -> int:
        return self.round

    @property
    def result(self) -> TableResult:
        return TableResult(self.round, self.entrants, self.points)

    @property
    def forfeit(self) -> bool:
        """Some game was lost by a fault rather than played out."""
        return any(t != "normal" for t in self.terminations)

    def to_json(self) -> str:
        return json.dumps(
            {
                "table_id": self.table_id,
                "round": self.round,
                "entrants": list(self.entrants),
                "points": list(self.points),
                "places": list(self.result.places),
                "placement_points": list(self.result.points),
                "cards": list(self.cards),
                "wins": list(self.wins),
                "game_ids": list(self.game_ids),
                "terminations": list(self.terminations),
            }
        )

    def recent_entry(self, name: str, at: float | None = None) -> recent.RecentEntry:
        """The table as its players' recent-matches lists hold it, recorded `at` (None: now)."""
        return recent.tournament_entry(
            name, self.round, self.entrants, self.points, self.game_ids, at
        )

    @classmethod
    def from_json(cls, text: str) -> StoredTable:
        d = json.loads(text)
        return cls(
            d["table_id"], d["round"], tuple(d["entrants"]), tuple(d["points"]),
            tuple(d["cards"]), tuple(d["wins"]), tuple(d["game_ids"]), tuple(d["terminations"]),
        )  # fmt: skip


StoredEncounter = StoredMatch | StoredTable


def round_to_json(round_: EventRound) -> str:
    """A round as stored: a pair round's pairings and byes (with their kind), or a table
    round's tables and byes."""
    if isinstance(round_, TableRound):
        tables = [list(t) for t in round_.tables]
        return json.dumps({"number": round_.number, "tables": tables, "byes": list(round_.byes)})
    return json.dumps(
        {
            "number": round_.number,
            "pairings": [[p.seat0, p.seat1] for p in round_.pairings],
            "byes": [[b.entrant, b.kind.value] for b in round_.byes],
        }
    )


@functools.lru_cache(maxsize=4096)
def round_from_json(text: str) -> Round:
    """A stored pair round. Cached: a stored round never changes (first writer wins) and a
    Round is immutable, while every job of an event reads its rounds."""
    d = json.loads(text)
    number = d["number"]
    return Round(
        number,
        tuple(Pairing(a, b) for a, b in d["pairings"]),
        tuple(Bye(number, entrant, ByeKind(kind)) for entrant, kind in d["byes"]),
    )


def table_round_from_json(text: str) -> TableRound:
    d = json.loads(text)
    return TableRound(d["number"], tuple(tuple(t) for t in d["tables"]), tuple(d["byes"]))
