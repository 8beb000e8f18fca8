"""A tournament of tables in Redis: its rounds (tables and byes) and table results, each written
exactly once (first writer wins), next to the tournament's definition and status."""

from __future__ import annotations

import json
from dataclasses import dataclass

import redis

from arena.store import keys, recent
from arena.store.values import as_text
from arena.tournament import PodHistory, TableResult, TableRound


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


def table_round_to_json(round_: TableRound) -> str:
    return json.dumps(
        {
            "number": round_.number,
            "tables": [list(t) for t in round_.tables],
            "byes": list(round_.byes),
        }
    )


def table_round_from_json(text: str) -> TableRound:
    d = json.loads(text)
    return TableRound(d["number"], tuple(tuple(t) for t in d["tables"]), tuple(d["byes"]))


class TableStore:
    def __init__(self, client: redis.Redis) -> None:
        self._redis = client

    def save_round(self, name: str, round_: TableRound) -> bool:
        """Store a round once; False if it was already stored (by a concurrent job)."""
        text = table_round_to_json(round_)
        return bool(self._redis.hsetnx(keys.table_rounds(name), str(round_.number), text))

    def round(self, name: str, number: int) -> TableRound | None:
        """One stored round: a table job reads its own, not every round of the tournament."""
        text = self._redis.hget(keys.table_rounds(name), str(number))
        return None if text is None else table_round_from_json(as_text(text))

    def rounds(self, name: str) -> list[TableRound]:
        stored = self._redis.hgetall(keys.table_rounds(name))
        return sorted(
            (table_round_from_json(as_text(v)) for v in stored.values()), key=lambda r: r.number
        )

    def record(self, name: str, table: StoredTable) -> bool:
        """Store a table's result once, and list it among its players' recent matches (in the
        same step); False if it was already there (a rerun)."""
        results, entry = keys.table_results(name), table.recent_entry(name)
        return recent.record_once(self._redis, results, table.table_id, table.to_json(), entry)

    def recorded(self, name: str) -> set[str]:
        """The ids of the recorded tables (without reading their results)."""
        return {as_text(k) for k in self._redis.hkeys(keys.table_results(name))}

    def result(self, name: str, table_id: str) -> StoredTable | None:
        text = self._redis.hget(keys.table_results(name), table_id)
        return None if text is None else StoredTable.from_json(as_text(text))

    def results(self, name: str) -> dict[str, StoredTable]:
        stored = self._redis.hgetall(keys.table_results(name))
        return {as_text(k): StoredTable.from_json(as_text(v)) for k, v in stored.items()}

    def history(self, name: str) -> PodHistory:
        """Every recorded table and every bye of the scheduled rounds, in round order."""
        tables = sorted(self.results(name).values(), key=lambda t: (t.round, t.table_id))
        byes = tuple(bye for r in self.rounds(name) for bye in r.bye_records)
        return PodHistory(tuple(t.result for t in tables), byes)
