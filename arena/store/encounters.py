"""An event's rounds and board results in Redis, pairs and tables alike, each written exactly
once (first writer wins). Pairs and tables keep their own keys and JSON (`arena.store.results`),
as events stored before have them: `encounters_of` picks the kind from the definition
(`arena.tournament.encounter`), and everything else is one implementation."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import redis

from arena.store import keys, recent
from arena.store.results import (
    StoredEncounter,
    StoredMatch,
    StoredTable,
    round_from_json,
    round_to_json,
    table_round_from_json,
)
from arena.store.values import as_text
from arena.tournament import PodHistory, Round, TableRound
from arena.tournament.definition import TournamentDefinition
from arena.tournament.encounter import EventRound, at_tables

R = TypeVar("R", Round, TableRound)
S = TypeVar("S", StoredMatch, StoredTable)


@dataclass(frozen=True, slots=True)
class Kind(Generic[R, S]):
    """Where and how one kind of encounter is stored."""

    rounds_key: Callable[[str], str]
    results_key: Callable[[str], str]
    round_from_json: Callable[[str], R]
    result_from_json: Callable[[str], S]


PAIRS: Kind[Round, StoredMatch] = Kind(
    keys.tournament_rounds, keys.tournament_results, round_from_json, StoredMatch.from_json
)
TABLES: Kind[TableRound, StoredTable] = Kind(
    keys.table_rounds, keys.table_results, table_round_from_json, StoredTable.from_json
)


class Encounters(Generic[R, S]):
    """The rounds and results of events of one kind."""

    def __init__(self, client: redis.Redis, kind: Kind[R, S]) -> None:
        self._redis = client
        self._kind: Kind[R, S] = kind

    def save_round(self, name: str, round_: EventRound) -> bool:
        """Store a round once; False if it was already stored (by a concurrent job)."""
        key = self._kind.rounds_key(name)
        return bool(self._redis.hsetnx(key, str(round_.number), round_to_json(round_)))

    def round(self, name: str, number: int) -> R | None:
        """One stored round: a job reads its own, not every round of the event."""
        text = self._redis.hget(self._kind.rounds_key(name), str(number))
        return None if text is None else self._kind.round_from_json(as_text(text))

    def rounds(self, name: str) -> list[R]:
        stored = self._redis.hgetall(self._kind.rounds_key(name))
        parsed = (self._kind.round_from_json(as_text(v)) for v in stored.values())
        return sorted(parsed, key=lambda r: r.number)

    def round_count(self, name: str) -> int:
        return int(self._redis.hlen(self._kind.rounds_key(name)))

    def record(self, name: str, result: StoredEncounter) -> bool:
        """Store a board's result once, and list it among its players' recent matches (in the
        same step); False if it was already there (a rerun or duplicate job)."""
        key, entry = self._kind.results_key(name), result.recent_entry(name)
        return recent.record_once(self._redis, key, result.encounter_id, result.to_json(), entry)

    def recorded(self, name: str) -> set[str]:
        """The ids of the recorded boards (without reading their results)."""
        return {as_text(k) for k in self._redis.hkeys(self._kind.results_key(name))}

    def recorded_count(self, name: str) -> int:
        return int(self._redis.hlen(self._kind.results_key(name)))

    def result(self, name: str, the_id: str) -> S | None:
        text = self._redis.hget(self._kind.results_key(name), the_id)
        return None if text is None else self._kind.result_from_json(as_text(text))

    def results_of(self, name: str, ids: Sequence[str]) -> list[S | None]:
        """The results of `ids` (None where there is none yet), in one round trip."""
        if not ids:
            return []
        texts = self._redis.hmget(self._kind.results_key(name), list(ids))
        return [None if t is None else self._kind.result_from_json(as_text(t)) for t in texts]

    def results(self, name: str) -> dict[str, S]:
        stored = self._redis.hgetall(self._kind.results_key(name))
        return {as_text(k): self._kind.result_from_json(as_text(v)) for k, v in stored.items()}


AnyEncounters = Encounters[Round, StoredMatch] | Encounters[TableRound, StoredTable]


def pair_encounters(client: redis.Redis) -> Encounters[Round, StoredMatch]:
    return Encounters(client, PAIRS)


def table_encounters(client: redis.Redis) -> Encounters[TableRound, StoredTable]:
    return Encounters(client, TABLES)


def encounters_of(client: redis.Redis, definition: TournamentDefinition) -> AnyEncounters:
    """The store of `definition`'s rounds and results, of its kind."""
    return table_encounters(client) if at_tables(definition) else pair_encounters(client)


def pod_history(client: redis.Redis, name: str) -> PodHistory:
    """Every recorded table and every bye of the scheduled rounds of an event of tables."""
    tables = table_encounters(client)
    played = sorted(tables.results(name).values(), key=lambda t: (t.round, t.table_id))
    byes = tuple(bye for r in tables.rounds(name) for bye in r.bye_records)
    return PodHistory(tuple(t.result for t in played), byes)
