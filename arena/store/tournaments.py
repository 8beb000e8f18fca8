"""Tournaments in Redis: definitions, lifecycle states, entrants (late and withdrawn) and a pair
event's history; the rounds and results of either kind are kept by `arena.store.encounters`."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

import redis

from arena.store import keys, states
from arena.store.encounters import encounters_of, pair_encounters, pod_history
from arena.store.results import StoredMatch
from arena.store.values import as_text
from arena.tournament import Bye, ByeKind, History, Round
from arena.tournament.definition import TournamentDefinition
from arena.tournament.encounter import EventHistory, at_tables, boards
from arena.tournament.lifecycle import Command, State, check


class TournamentStoreError(ValueError):
    """An unknown tournament, or one created twice; the message says which."""


Status = State  # a tournament's lifecycle state; a stopped one says why (`reason`)


def _two_sided(record: dict[str, Any]) -> tuple[str, str, float]:
    seats: list[str] = record["players"]
    first = seats[0]
    other = next(name for name in seats if name != first)
    winner = (record.get("result") or {}).get("winner")
    score = 0.5 if winner is None else float(seats[winner] == first)
    return first, other, score


class TournamentStore:
    def __init__(self, client: redis.Redis) -> None:
        self._redis, self._pairs = client, pair_encounters(client)

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
        store = encounters_of(self._redis, definition)
        rounds = store.rounds(name)
        scheduled = sum(len(boards(r)) for r in rounds)
        if not rounds:
            status = Status.CREATED
        elif len(rounds) >= definition.planned_rounds and store.recorded_count(name) >= scheduled:
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
        scheduled = encounters_of(self._redis, definition).round_count(name)
        detail = f"{scheduled} of {definition.planned_rounds} rounds"
        reason = self.reason(name) if status is Status.STOPPED else ""
        return f"{detail}; {reason}" if reason else detail

    def reason(self, name: str) -> str:
        value = self._redis.hget(keys.tournament(name), "reason")
        return "" if value is None else as_text(value)

    def count_attempt(self, name: str, the_match_id: str) -> int:
        """Note that a worker starts playing a match; the count so far, this one included."""
        return int(self._redis.hincrby(keys.tournament_attempts(name), the_match_id, 1))

    def attempts(self, name: str) -> dict[str, int]:
        stored = self._redis.hgetall(keys.tournament_attempts(name))
        return {as_text(k): int(v) for k, v in stored.items()}

    # A pair event's rounds and results (`arena.store.encounters` keeps either kind).
    def save_round(self, name: str, round_: Round) -> bool:
        return self._pairs.save_round(name, round_)

    def rounds(self, name: str) -> list[Round]:
        return self._pairs.rounds(name)

    def round(self, name: str, number: int) -> Round | None:
        return self._pairs.round(name, number)

    def record(self, name: str, match: StoredMatch) -> bool:
        return self._pairs.record(name, match)

    def recorded(self, name: str) -> set[str]:
        return self._pairs.recorded(name)

    def result(self, name: str, the_match_id: str) -> StoredMatch | None:
        return self._pairs.result(name, the_match_id)

    def results_of(self, name: str, match_ids: Sequence[str]) -> list[StoredMatch | None]:
        return self._pairs.results_of(name, match_ids)

    def recorded_count(self, name: str) -> int:
        return self._pairs.recorded_count(name)

    def results(self, name: str) -> dict[str, StoredMatch]:
        return self._pairs.results(name)

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

    def event_history(self, definition: TournamentDefinition) -> EventHistory:
        """What pairs the next Swiss round of either kind: `history`, or the tables' one."""
        if at_tables(definition):
            return pod_history(self._redis, definition.name)
        return self.history(definition.name)
