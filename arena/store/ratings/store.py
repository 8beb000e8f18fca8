"""Ratings in Redis: every rated result updates its players atomically, exactly once per result id.

A result is two bots' (`RatedResult`) or several sides' (`TableResult`: a table, or teams); its
number of sides must be the ladder's (a ladder's config fixes its number of players).

An update is an optimistic transaction (WATCH / MULTI / EXEC) running the same Python maths as
the rebuild (`arena.ratings.ladder.rate_outcomes`), rather than a Lua port of it: live values and a
rebuild from the results log then come from one function and agree bit for bit.

Every update of a ladder watches the ladder's `applied` hash, which every update also writes, so
the updates of one ladder are serialised: the results log holds them in the order their maths
ran, which is the order a rebuild replays. Concurrent writers only retry; nothing is lost.

`apply_many` is the fast path for a stream of results (a ladder's runner, a backlog, the
benchmark): batches of results, each still its own period, one transaction a batch
(`arena.store.ratings.batch`), the next batch rated while one commits
(`arena.store.ratings.pipeline`); it writes the same bytes as `apply` one result at a time.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import redis

from arena.ratings.errors import InvalidResultError
from arena.ratings.ladder import Standing, rate_outcomes
from arena.ratings.single import rate_one
from arena.store import keys
from arena.store.ladders import LadderDefinition, LadderStore, UnknownBotError
from arena.store.ratings.batch import DEFAULT_BATCH, BatchApplied, StandingCache
from arena.store.ratings.pipeline import PipelinedWriter
from arena.store.ratings.records import (
    BOARDS,
    AnyResult,
    RatedResult,
    TableResult,
    result_from_json,
    standing_from_fields,
    write_period,
)
from arena.store.values import as_text

__all__ = ["AnyResult", "Applied", "RatedResult", "RatingStore", "TableResult"]


@dataclass(frozen=True, slots=True)
class Applied:
    """What one rated period changed."""

    results: tuple[AnyResult, ...]
    position: int  # log index of the first result
    before: dict[str, Standing]
    after: dict[str, Standing]


@dataclass(frozen=True, slots=True)
class _Snapshot:
    seen: tuple[bool, ...]  # per result: already rated?
    position: int
    before: dict[str, Standing]


class RatingStore:
    def __init__(self, client: redis.Redis) -> None:
        self._redis = client
        self._ladders = LadderStore(client)
        self._caches: dict[str, StandingCache] = {}  # per ladder: see `apply_many`

    def apply(self, ladder: LadderDefinition, result: AnyResult) -> Applied | None:
        """Rate one result; None (and nothing written) if its id was already rated."""
        return self.apply_period(ladder, [result])

    def apply_many(
        self, ladder: LadderDefinition, results: Iterable[AnyResult], batch: int = DEFAULT_BATCH
    ) -> list[BatchApplied]:
        """Rate `results` in order, each as its own period (as `apply` would, one after the
        other), `batch` of them a transaction; ids rated already are skipped. Readers see each
        batch at once when it commits. A batch with a bad result (unknown bot, wrong number of
        sides) raises before anything of it is written; the batches before it stay rated."""
        if batch < 1:
            raise ValueError(f"a batch holds at least one result, not {batch}")
        cache = self._caches.setdefault(ladder.ref.slug, StandingCache())
        pending = list(results)
        chunks = [pending[start : start + batch] for start in range(0, len(pending), batch)]
        return PipelinedWriter(self._redis, ladder, cache).run(chunks)

    def apply_period(
        self, ladder: LadderDefinition, results: Sequence[AnyResult]
    ) -> Applied | None:
        """Rate `results` as one rating period (each against the pre-period values), all at
        once; None if they were all rated already."""
        ids = [result.result_id for result in results]
        if not ids or len(set(ids)) != len(ids):
            raise InvalidResultError("a rating period needs results with distinct ids")
        period = tuple(dataclasses.replace(r, period=ids[0]) for r in results)
        outcomes = [r.outcome() for r in period]
        for result, outcome in zip(period, outcomes, strict=True):
            if len(outcome.teams) != ladder.sides:
                raise InvalidResultError(
                    f"result {result.result_id!r} has {len(outcome.teams)} sides, but games on "
                    f"ladder {ladder.ref} ({ladder.players} players) have {ladder.sides}"
                )
        players = sorted({p for r in period for p in r.players})
        slug = ladder.ref.slug
        watched = [keys.ladder_applied(slug), *(keys.ladder_standing(slug, p) for p in players)]
        with self._redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(*watched)  # type: ignore[no-untyped-call]
                    snap = self._read(ladder, ids, players)
                    if all(snap.seen):
                        return None
                    if any(snap.seen):
                        rated = [i for i, seen in zip(ids, snap.seen, strict=True) if seen]
                        raise InvalidResultError(f"already rated in another period: {rated}")
                    after = (  # one result: the same floats, faster (tests/ratings/test_single.py)
                        rate_one(snap.before, outcomes[0], ladder.params)
                        if len(outcomes) == 1
                        else rate_outcomes(snap.before, outcomes, ladder.params)
                    )
                    pipe.multi()
                    write_period(pipe, slug, period, snap.position, after)
                    pipe.execute()
                    return Applied(period, snap.position, snap.before, after)
                except redis.WatchError:
                    continue  # another result of this ladder went first: read again

    def _read(self, ladder: LadderDefinition, ids: list[str], players: list[str]) -> _Snapshot:
        """Everything an update needs, in one round trip.

        The reads run on another connection, after the caller's WATCH: if a watched key changes
        from then on, the EXEC fails and the caller reads again, so they cannot be stale.
        """
        slug = ladder.ref.slug
        read = self._redis.pipeline(transaction=False)
        read.exists(keys.ladder(slug))
        read.hmget(keys.ladder_applied(slug), ids)
        read.llen(keys.ladder_log(slug))
        read.hmget(keys.bot_names(), players)
        for player in players:
            read.hgetall(keys.ladder_standing(slug, player))
        exists, seen, position, bot_ids, *raw = read.execute()
        if not exists:
            self._ladders.get(ladder.ref)  # raises the "unknown ladder" error
        for player, bot_id in zip(players, bot_ids, strict=True):
            self._ladders.check_player(player, registered=bot_id is not None)
        before = {p: standing_from_fields(r) for p, r in zip(players, raw, strict=True)}
        return _Snapshot(tuple(s is not None for s in seen), int(position), before)

    def is_applied(self, ladder: LadderDefinition, result_id: str) -> bool:
        return bool(self._redis.hexists(keys.ladder_applied(ladder.ref.slug), result_id))

    def standing(self, ladder: LadderDefinition, player: str) -> Standing:
        raw = self._redis.hgetall(keys.ladder_standing(ladder.ref.slug, player))
        if not raw:
            raise UnknownBotError(f"bot {player!r} has no rated result on ladder {ladder.ref}")
        return standing_from_fields(raw)

    def standings(self, ladder: LadderDefinition, players: Iterable[str]) -> dict[str, Standing]:
        """Current standings; players without a rated result get the initial values."""
        names = list(players)
        pipe = self._redis.pipeline(transaction=False)
        for player in names:
            pipe.hgetall(keys.ladder_standing(ladder.ref.slug, player))
        replies = pipe.execute()
        return {name: standing_from_fields(raw) for name, raw in zip(names, replies, strict=True)}

    def leaderboard(
        self, ladder: LadderDefinition, board: str = "elo", limit: int | None = None
    ) -> list[tuple[str, Standing]]:
        """Players best first on `board` (for "rd": the least certain first; "ordinal" is
        Weng-Lin's mu - 3 sigma)."""
        if board not in BOARDS:
            raise ValueError(f"unknown leaderboard {board!r}: choose one of {', '.join(BOARDS)}")
        end = -1 if limit is None else limit - 1
        found = self._redis.zrevrange(keys.ladder_board(ladder.ref.slug, board), 0, end)
        names = [as_text(name) for name in cast("list[bytes]", found)]
        return list(self.standings(ladder, names).items())

    def player_count(self, ladder: LadderDefinition) -> int:
        return int(self._redis.zcard(keys.ladder_board(ladder.ref.slug, "games")))

    def history(self, ladder: LadderDefinition, player: str) -> list[dict[str, Any]]:
        self.standing(ladder, player)  # unknown players are an error, not an empty history
        raw = self._redis.lrange(keys.ladder_history(ladder.ref.slug, player), 0, -1)
        return [json.loads(as_text(entry)) for entry in raw]

    def results(self, ladder: LadderDefinition) -> list[AnyResult]:
        raw = self._redis.lrange(keys.ladder_log(ladder.ref.slug), 0, -1)
        return [result_from_json(as_text(entry)) for entry in raw]

    def results_at(
        self, ladder: LadderDefinition, positions: Sequence[int]
    ) -> dict[int, AnyResult]:
        """The logged results at these positions of the ladder's log (a history entry's
        "position"), in one round trip."""
        pipe = self._redis.pipeline(transaction=False)
        for position in positions:
            pipe.lindex(keys.ladder_log(ladder.ref.slug), position)
        found = pipe.execute() if positions else []
        return {
            position: result_from_json(as_text(entry))
            for position, entry in zip(positions, found, strict=True)
            if entry is not None
        }
