"""Tournaments in Redis: definitions, rounds and match results, each written exactly once."""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import redis

from arena.store import keys, recent, states
from arena.store.values import as_text
from arena.tournament import Bye, ByeKind, History, MatchResult, Pairing, Round
from arena.tournament.definition import TournamentDefinition
from arena.tournament.lifecycle import Command, State, check


class TournamentStoreError(ValueError):
    """An unknown tournament, or one created twice; the message says which."""


Status = State  # a tournament's lifecycle state; a stopped one says why (`reason`)


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """A played match: the maths' `MatchResult` plus where its games are."""

    match_id: str
    result: MatchResult
    game_ids: tuple[str, ...]
    terminations: tuple[str, ...]
    margin: int  # card points of seat0's entrant minus seat1's, over all games

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
        r = self.result
        sides, scores = (r.seat0, r.seat1), (r.game_points0, r.game_points1)
        return recent.tournament_entry(name, r.round, sides, scores, self.game_ids, at)

    @classmethod
    def from_json(cls, text: str) -> StoredMatch:
        d = json.loads(text)
        points = d["game_points"]
        result = MatchResult(d["round"], d["seat0"], d["seat1"], points[0], points[1], d["forfeit"])
        return cls(
            d["match_id"], result, tuple(d["game_ids"]), tuple(d["terminations"]), d["margin"]
        )


def _two_sided(record: dict[str, Any]) -> tuple[str, str, float]:
    seats: list[str] = record["players"]
    first = seats[0]
    other = next(name for name in seats if name != first)
    winner = (record.get("result") or {}).get("winner")
    score = 0.5 if winner is None else float(seats[winner] == first)
    return first, other, score


def match_id(name: str, round_number: int, board: int) -> str:
    return f"{name}.r{round_number}.b{board}"


def round_to_json(round_: Round) -> str:
    return json.dumps(
        {
            "number": round_.number,
            "pairings": [[p.seat0, p.seat1] for p in round_.pairings],
            "byes": [[b.entrant, b.kind.value] for b in round_.byes],
        }
    )


@functools.lru_cache(maxsize=4096)
def _parsed_round(text: str) -> Round:
    """A stored round never changes (first writer wins) and a Round is immutable: every match
    job of a tournament reads its rounds, which need parsing once per worker process."""
    return round_from_json(text)


def round_from_json(text: str) -> Round:
    d = json.loads(text)
    number = d["number"]
    return Round(
        number,
        tuple(Pairing(a, b) for a, b in d["pairings"]),
        tuple(Bye(number, entrant, ByeKind(kind)) for entrant, kind in d["byes"]),
    )


class TournamentStore:
    def __init__(self, client: redis.Redis) -> None:
        self._redis = client

    def create(self, definition: TournamentDefinition) -> None:
        key = keys.tournament(definition.name)
        if not self._redis.hsetnx(key, "definition", definition.to_json()):
            raise TournamentStoreError(f"a tournament named {definition.name!r} already exists")
        self._redis.hset(key, mapping={"status": Status.CREATED.value, "created": time.time()})
        self._redis.sadd(keys.tournaments(), definition.name)

    def get(self, name: str) -> TournamentDefinition:
        text = self._redis.hget(keys.tournament(name), "definition")
        if text is None:
            raise TournamentStoreError(f"no tournament named {name!r}")
        return TournamentDefinition.from_json(as_text(text))

    def names(self) -> list[str]:
        return sorted(as_text(name) for name in self._redis.smembers(keys.tournaments()))

    def status(self, name: str) -> Status:
        value = self._redis.hget(keys.tournament(name), "status")
        return Status(as_text(value)) if value is not None else self._derived_status(name)

    def _derived_status(self, name: str) -> Status:
        """The state of a tournament stored without one, from its records; stored from now on."""
        definition = self.get(name)  # an unknown name fails here
        rounds_key, results_key = (
            (keys.table_rounds(name), keys.table_results(name))
            if definition.table_size
            else (keys.tournament_rounds(name), keys.tournament_results(name))
        )
        rounds = [json.loads(as_text(r)) for r in self._redis.hvals(rounds_key)]
        boards = sum(len(r.get("tables", r.get("pairings", []))) for r in rounds)
        if not rounds:
            status = Status.CREATED
        elif len(rounds) >= definition.planned_rounds and self._redis.hlen(results_key) >= boards:
            status = Status.FINISHED
        else:
            status = Status.RUNNING
        return states.set_derived(self._redis, keys.tournament(name), "status", status)

    def set_status(self, name: str, status: Status, reason: str = "") -> None:
        """Set the state outright: for fixtures and benches; commands go through `transition`."""
        self._redis.hset(keys.tournament(name), mapping={"status": status.value, "reason": reason})

    def check(self, name: str, command: Command) -> Status:
        """The state `command` would lead to, or a `LifecycleError` naming the tournament, its
        state and why; changes nothing (`transition` does, atomically)."""
        status = self.status(name)
        return check(name, status, command, self.state_detail(name, status))

    def transition(self, name: str, command: Command, reason: str = "") -> Status:
        """Apply `command` to the tournament's state in one transaction, or refuse it naming the
        state (`LifecycleError`): of two `start`s at once, one starts and the other is told so.
        Returns the state it was in; `reason` says why a stopped tournament stopped."""
        self.status(name)  # an unknown name fails here; a state missing is derived
        return states.transition(
            self._redis, keys.tournament(name), "status", name, command,
            lambda status: self.state_detail(name, status), reason,
        )  # fmt: skip

    def try_transition(self, name: str, command: Command, reason: str = "") -> bool:
        """`transition`, for the workers: False, not an error, if the state does not take it
        (another worker finished the tournament first, or the organiser stopped it)."""
        try:
            self.transition(name, command, reason)
        except ValueError:
            return False
        return True

    def since(self, name: str) -> float:
        """When the state last changed (0: before states were timed)."""
        return float(self._redis.hget(keys.tournament(name), "since") or 0.0)

    def state_detail(self, name: str, status: Status) -> str:
        """How far it got, as a refusal shows it: "2 of 5 rounds", and why it stopped."""
        definition = self.get(name)
        rounds_key = (
            keys.table_rounds(name) if definition.table_size else keys.tournament_rounds(name)
        )
        detail = f"{self._redis.hlen(rounds_key)} of {definition.planned_rounds} rounds"
        reason = self.reason(name) if status is Status.STOPPED else ""
        return f"{detail}; {reason}" if reason else detail

    def reason(self, name: str) -> str:
        value = self._redis.hget(keys.tournament(name), "reason")
        return "" if value is None else as_text(value)

    def save_round(self, name: str, round_: Round) -> bool:
        """Store a round once; False if it was already stored (by a concurrent job)."""
        return bool(
            self._redis.hsetnx(
                keys.tournament_rounds(name), str(round_.number), round_to_json(round_)
            )
        )

    def rounds(self, name: str) -> list[Round]:
        stored = self._redis.hgetall(keys.tournament_rounds(name))
        return sorted((_parsed_round(as_text(v)) for v in stored.values()), key=lambda r: r.number)

    def round(self, name: str, number: int) -> Round | None:
        """One stored round: a match job reads its own, not every round of the tournament."""
        text = self._redis.hget(keys.tournament_rounds(name), str(number))
        return None if text is None else _parsed_round(as_text(text))

    def count_attempt(self, name: str, the_match_id: str) -> int:
        """Note that a worker starts playing a match; the count so far, this one included."""
        return int(self._redis.hincrby(keys.tournament_attempts(name), the_match_id, 1))

    def attempts(self, name: str) -> dict[str, int]:
        stored = self._redis.hgetall(keys.tournament_attempts(name))
        return {as_text(k): int(v) for k, v in stored.items()}

    def record(self, name: str, match: StoredMatch) -> bool:
        """Store a match result once, and list it among its players' recent matches (in the
        same step); False if it was already there (a rerun or duplicate job)."""
        results, entry = keys.tournament_results(name), match.recent_entry(name)
        return recent.record_once(self._redis, results, match.match_id, match.to_json(), entry)

    def recorded(self, name: str) -> set[str]:
        """The ids of the recorded matches (without reading their results)."""
        return {as_text(k) for k in self._redis.hkeys(keys.tournament_results(name))}

    def result(self, name: str, the_match_id: str) -> StoredMatch | None:
        text = self._redis.hget(keys.tournament_results(name), the_match_id)
        return None if text is None else StoredMatch.from_json(as_text(text))

    def results_of(self, name: str, match_ids: Sequence[str]) -> list[StoredMatch | None]:
        """The results of `match_ids` (None where there is none yet), in one round trip."""
        if not match_ids:
            return []
        texts = self._redis.hmget(keys.tournament_results(name), list(match_ids))
        return [None if t is None else StoredMatch.from_json(as_text(t)) for t in texts]

    def recorded_count(self, name: str) -> int:
        return int(self._redis.hlen(keys.tournament_results(name)))

    def results(self, name: str) -> dict[str, StoredMatch]:
        stored = self._redis.hgetall(keys.tournament_results(name))
        return {as_text(k): StoredMatch.from_json(as_text(v)) for k, v in stored.items()}

    def games(self, name: str) -> list[tuple[str, str, float]]:
        """Every recorded game as (seat 0's entrant, the other side's entrant, seat 0's score);
        in a team game each entrant plays every seat of its team."""
        ids = [g for m in self.results(name).values() for g in m.game_ids]
        played = []
        for text in self._redis.mget([keys.game_record(g) for g in ids]) if ids else []:
            if text is not None:
                played.append(_two_sided(json.loads(as_text(text))))
        return played

    def enter_late(self, name: str, entrant: str) -> None:
        """Add `entrant` to a running Swiss from its next unpaired round on."""
        if entrant in self.entrants(name):
            raise TournamentStoreError(f"{entrant!r} is already an entrant of {name!r}")
        self._redis.rpush(keys.tournament_late(name), entrant)

    def withdraw(self, name: str, entrant: str) -> None:
        if entrant not in self.entrants(name):
            raise TournamentStoreError(f"{entrant!r} is not an entrant of {name!r}")
        if not self._redis.sadd(keys.tournament_withdrawn(name), entrant):
            raise TournamentStoreError(f"{entrant!r} has already withdrawn from {name!r}")

    def late_entrants(self, name: str) -> list[str]:
        return [as_text(e) for e in self._redis.lrange(keys.tournament_late(name), 0, -1)]

    def withdrawn(self, name: str) -> frozenset[str]:
        return frozenset(as_text(e) for e in self._redis.smembers(keys.tournament_withdrawn(name)))

    def entrants(self, name: str) -> tuple[str, ...]:
        """The seed order: the original field, then late entrants as they joined."""
        return (*self.get(name).entrants, *self.late_entrants(name))

    def history(self, name: str, results: Mapping[str, StoredMatch] | None = None) -> History:
        """Results and byes so far; a late entrant gets an absence bye for each round it missed
        (derived from the rounds, so joining while a round is being paired cannot lose one).
        `results`: the event's `results`, when the caller has read them already."""
        rounds = self.rounds(name)
        byes = [bye for round_ in rounds for bye in round_.byes]
        for entrant in self.late_entrants(name):
            byes += [
                Bye(r.number, entrant, ByeKind.ABSENT)
                for r in rounds
                if entrant not in {e for p in r.pairings for e in p.entrants}
                and entrant not in {b.entrant for b in r.byes}
            ]
        stored = self.results(name) if results is None else results
        ordered = tuple(sorted((m.result for m in stored.values()), key=lambda r: r.round))
        return History(ordered, tuple(byes))
