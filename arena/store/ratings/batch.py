"""Many rated results of one ladder applied in one transaction: the fast path of the ratings.

Each result is still its own rating period, rated in the batch's order against the standings
the previous ones left (exactly what as many `RatingStore.apply` calls in a row would do), so the
log, the standings, the boards and every history entry are the bytes one-by-one updates and
`arena ladder rebuild` write. Only the round trips differ: one read and one MULTI/EXEC a batch,
each key written once (a player's standing once, with its final values; its history with one
RPUSH, all in one Lua script: `arena.store.ratings.script`), and the maths on plain floats
(`arena.ratings.batch`, which the optional compiled build holds).

Exactly once: the batch WATCHes the ladder's `applied` hash and its summary, which every update
of the ladder writes (and a rebuild rewrites). A result whose id is rated already, or which
comes twice in the batch, is skipped; if any other update commits between the read and the
EXEC, the EXEC fails and the whole batch is read and rated again. Readers see a batch all at
once, when it commits: never half a batch, never a result in the log without its standings.

A writer keeps the standings it wrote (`StandingCache`): while the ladder's log still has the
length its last batch left, nobody else rated anything, so the next batch reads only the players
it has never seen. Any other update makes the log longer, and the cache is dropped. (A rebuild
leaves the length, but it rewrites the replay's values, which are the ones this writer wrote;
one that commits between a batch's read and its EXEC fails the EXEC: the batch is rated again.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import redis

from arena.ratings.batch import Texts, player_rows, rate_in_turn
from arena.ratings.errors import InvalidResultError
from arena.ratings.ladder import Outcome, Standing
from arena.store import keys
from arena.store.ladders import LadderDefinition, LadderStore
from arena.store.ratings.records import AnyResult, standing_from_fields
from arena.store.ratings.script import batch_command

# Results a transaction: big enough to amortise a batch's own cost (snapshot, script call, the
# wait for its reply; `arena bench ratings` measures the trade). The price: Redis runs a full
# batch's script in one go, every other client waiting; the workers rate each match as it ends
# (`RatingStore.apply`), so only a stream or a backlog given to `apply_many` makes full batches.
DEFAULT_BATCH = 3_000


@dataclass(frozen=True, slots=True)
class BatchApplied:
    """What one batch changed."""

    rated: tuple[AnyResult, ...]  # in log order, each its own period
    position: int  # log index of the first of them
    skipped: tuple[str, ...]  # ids rated already (or earlier in the same batch)


@dataclass(slots=True)
class StandingCache:
    """A single writer's copy of the standings it wrote, valid while the log length is `length`."""

    length: int = -1
    standings: dict[str, Standing] = field(default_factory=dict)


def check_sides(ladder: LadderDefinition, results: Sequence[AnyResult]) -> dict[str, Outcome]:
    """Each result's outcome by id, once a result with the wrong number of sides is refused."""
    outcomes: dict[str, Outcome] = {}
    for result in results:
        outcome = result.outcome()
        outcomes.setdefault(result.result_id, outcome)  # the first of a repeated id is rated
        sides = len(outcome.teams)
        if sides != ladder.sides:
            raise InvalidResultError(
                f"result {result.result_id!r} has {sides} sides, but games on "
                f"ladder {ladder.ref} ({ladder.players} players) have {ladder.sides}"
            )
    return outcomes


def check_ladder_and_players(
    client: redis.Redis,
    ladder: LadderDefinition,
    exists: int,
    players: Sequence[str],
    bot_ids: Sequence[bytes | None],
) -> None:
    """Raise the store's own error for a deleted ladder or a player it does not admit, from
    what a batch's read found (the ladder key's EXISTS, each player's registered bot id)."""
    ladders = LadderStore(client)
    if not exists:
        ladders.get(ladder.ref)  # raises the "unknown ladder" error
    for player, bot_id in zip(players, bot_ids, strict=True):
        ladders.check_player(player, registered=bot_id is not None)


def split_fresh(
    results: Sequence[AnyResult], seen: Sequence[bytes | None]
) -> tuple[list[AnyResult], list[str]]:
    """(results to rate, ids skipped): an id rated already (`seen`) or earlier in the batch."""
    fresh: list[AnyResult] = []
    skipped: list[str] = []
    taken: set[str] = set()
    for result, rated in zip(results, seen, strict=True):
        if rated is not None or result.result_id in taken:
            skipped.append(result.result_id)
        else:
            taken.add(result.result_id)
            fresh.append(result)
    return fresh, skipped


class _Batch:
    """One attempt: the reads under WATCH, the ratings, the writes."""

    def __init__(
        self,
        client: redis.Redis,
        ladder: LadderDefinition,
        cache: StandingCache,
        outcomes: dict[str, Outcome],
    ):
        self.client, self.ladder, self.cache = client, ladder, cache
        self.outcomes = outcomes
        self.slug = ladder.ref.slug

    def read(
        self, pipe: redis.client.Pipeline, results: Sequence[AnyResult]
    ) -> tuple[list[AnyResult], list[str], int, dict[str, Standing]]:
        """(results to rate, ids skipped, log length, standings of their players)."""
        players = sorted({p for r in results for p in r.players})
        # Not the standings: WATCH costs Redis a scan of the keys already watched, per key.
        # Every update writes `applied` and the summary, and a rebuild rewrites the summary.
        pipe.watch(  # type: ignore[no-untyped-call]
            keys.ladder_applied(self.slug), keys.ladder_summary(self.slug)
        )
        read = self.client.pipeline(transaction=False)
        read.exists(keys.ladder(self.slug))
        read.llen(keys.ladder_log(self.slug))
        read.hmget(keys.ladder_applied(self.slug), [r.result_id for r in results])
        read.hmget(keys.bot_names(), players)
        exists, length, seen, bot_ids = read.execute()
        check_ladder_and_players(self.client, self.ladder, exists, players, bot_ids)
        fresh, skipped = split_fresh(results, seen)
        return fresh, skipped, int(length), self._standings(players, int(length))

    def _standings(self, players: list[str], length: int) -> dict[str, Standing]:
        if self.cache.length != length:
            self.cache.standings.clear()  # someone else rated (or rebuilt): read everything
        known = self.cache.standings
        missing = [p for p in players if p not in known]
        read = self.client.pipeline(transaction=False)
        for player in missing:
            read.hgetall(keys.ladder_standing(self.slug, player))
        stored = read.execute() if missing else []
        current = {p: known[p] for p in players if p in known}
        for player, raw in zip(missing, stored, strict=True):
            if raw:  # a player never rated stays out: rate_one starts it at the initial values
                current[player] = standing_from_fields(raw)
        return current

    def rate_and_write(
        self,
        pipe: redis.client.Pipeline,
        fresh: list[AnyResult],
        position: int,
        current: dict[str, Standing],
    ) -> tuple[AnyResult, ...]:
        rated, _, command = rate_fresh(self.ladder, self.outcomes, fresh, position, current)
        pipe.multi()
        pipe.execute_command(*command)  # type: ignore[no-untyped-call]
        return rated


def own_period(result: AnyResult) -> AnyResult:
    """`dataclasses.replace(result, period=result.result_id)` without validating the result again:
    a table's validation computes its outcome again, work the batch has already done."""
    clone = object.__new__(type(result))
    for name in result.__slots__:
        object.__setattr__(clone, name, getattr(result, name))
    object.__setattr__(clone, "period", result.result_id)
    return clone


def rate_fresh(
    ladder: LadderDefinition,
    outcomes: dict[str, Outcome],
    fresh: Sequence[AnyResult],
    position: int,
    current: dict[str, Standing],
) -> tuple[tuple[AnyResult, ...], dict[str, Standing], list[str | int]]:
    """Rate `fresh` one after another from log index `position`, updating `current`: (the
    results as logged, each player's final standing, the EVAL writing it all)."""
    rated = tuple(own_period(r) for r in fresh)
    todo = [(r.result_id, r.at, outcomes[r.result_id]) for r in rated]
    texts: dict[str, Texts] = {}
    histories = rate_in_turn(current, todo, position, ladder.params, texts)
    final = {player: current[player] for player in histories}
    rows = player_rows(final, histories, texts)
    command = batch_command(ladder.ref.slug, rated, position, rows)
    return rated, final, command


def apply_batch(
    client: redis.Redis,
    ladder: LadderDefinition,
    results: Sequence[AnyResult],
    cache: StandingCache | None = None,
) -> BatchApplied:
    """Rate `results` (each its own period, in order) in one transaction; see the module."""
    outcomes = check_sides(ladder, results)
    if not results:
        return BatchApplied((), 0, ())
    cache = cache if cache is not None else StandingCache()
    batch = _Batch(client, ladder, cache, outcomes)
    with client.pipeline() as pipe:
        while True:
            try:
                fresh, skipped, length, current = batch.read(pipe, results)
                if not fresh:
                    pipe.unwatch()
                    return BatchApplied((), length, tuple(skipped))
                rated = batch.rate_and_write(pipe, fresh, length, current)
                if pipe.execute()[-1] != 1:  # the script's own check (the WATCH catches it first)
                    raise redis.WatchError("the ladder changed under the batch")
            except redis.WatchError:
                cache.standings.clear()
                continue  # another update of this ladder went first: read and rate again
            cache.standings.update(current)
            cache.length = length + len(rated)
            return BatchApplied(rated, length, tuple(skipped))
