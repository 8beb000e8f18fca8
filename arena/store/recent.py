"""Each player's recent matches: a short list per player, newest first, written with the result.

The bots page shows each bot's latest matches. Finding them by reading every tournament's and
ladder's results costs more with every match ever played; instead every path that stores a
result pushes one entry (JSON) onto the list of each of its players, in the same atomic step
as the result itself, so a result stored once is listed once, whatever the retries:

- a tournament's match or table (`TournamentStore.record`, `TableStore.record`): `record_once`,
  one Lua script that stores the result with HSETNX and pushes only if it was new;
- a rated ladder result: `queue_pushes` in the MULTI of `RatingStore.apply_period` (its WATCH
  of the ladder's `applied` hash guards it), and the batch's script (`rating_script`).

A list holds at least its `KEPT` newest entries: the batch's script lets it grow to twice that
before trimming it (a trim costs about what a push does), the other writers trim at once. SPRT
pairs are not listed (the bots page does not show them). Results stored before these lists
existed are put in them once by `arena.store.recent_backfill`, which then marks the store
`ready`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import redis

from arena.store import keys
from arena.store.rating_records import AnyResult, RatedResult
from arena.store.values import as_text

KEPT = 10  # entries kept per player: the bots page shows 6

TOURNAMENT = "tournament"
LADDER = "ladder"

# KEYS: the results hash, then each player's list. ARGV: the result's id and JSON, the entry,
# KEPT. Nothing is pushed when the id is stored already (a rerun, a duplicate job).
_RECORD_ONCE = """
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
for i = 2, #KEYS do
  redis.call('LPUSH', KEYS[i], ARGV[3])
  redis.call('LTRIM', KEYS[i], 0, tonumber(ARGV[4]) - 1)
end
return 1
"""


@dataclass(frozen=True, slots=True)
class RecentEntry:
    """One match (or table) as the bots page lists it, from nobody's side yet."""

    kind: str  # TOURNAMENT or LADDER
    where: str  # the tournament's name or the ladder's slug
    label: str  # "round 3", "match 17"
    sides: tuple[str, ...]  # every player; a team's players each get the team's score
    scores: tuple[float, ...]  # in `sides` order
    game: str  # its first game's id, "" if none

    def to_json(self) -> str:
        return json.dumps(
            [self.kind, self.where, self.label, list(self.sides), list(self.scores), self.game]
        )

    @classmethod
    def from_json(cls, text: str) -> RecentEntry:
        kind, where, label, sides, scores, game = json.loads(text)
        return cls(kind, where, label, tuple(sides), tuple(scores), game)


def tournament_entry(
    name: str, round_number: int, sides: Sequence[str], scores: Sequence[float],
    game_ids: Sequence[str],
) -> RecentEntry:  # fmt: skip
    first = game_ids[0] if game_ids else ""
    return RecentEntry(
        TOURNAMENT, name, f"round {round_number}", tuple(sides), tuple(scores), first
    )


def ladder_entry(slug: str, result: AnyResult, position: int) -> RecentEntry:
    """The entry of a result logged at index `position` of the ladder's log."""
    if isinstance(result, RatedResult):
        scores: tuple[float, ...] = (result.score_a, 1 - result.score_a)
    else:
        scores = tuple(score for names, score in result.sides for _ in names)
    game = f"{result.result_id}.g0" if result.games else ""
    return RecentEntry(LADDER, slug, f"match {position + 1}", result.players, scores, game)


def record_once(
    client: redis.Redis, results: str, field: str, value: str, entry: RecentEntry
) -> bool:
    """HSETNX `field` of the hash `results` and, if it was new, list `entry` for its players."""
    lists = [keys.recent_matches(player) for player in dict.fromkeys(entry.sides)]
    stored = client.eval(
        _RECORD_ONCE, 1 + len(lists), results, *lists, field, value, entry.to_json(), KEPT
    )
    return bool(stored)


def ladder_text(slug_json: str, result: AnyResult, position: int) -> str:
    """`ladder_entry(...).to_json()` written out directly (`slug_json` is the slug's JSON): a
    batch of rated results formats one for most of its results (a test compares them)."""
    if isinstance(result, RatedResult):
        scores = f"{_number(result.score_a)}, {_number(1 - result.score_a)}"
    else:
        scores = ", ".join(_number(score) for names, score in result.sides for _ in names)
    game = json.dumps(f"{result.result_id}.g0") if result.games else '""'
    players = json.dumps(result.players)
    return f'["{LADDER}", {slug_json}, "match {position + 1}", {players}, [{scores}], {game}]'


def _number(value: float) -> str:
    """A number as json.dumps writes it: `repr` for ints and finite floats."""
    return repr(value) if math.isfinite(value) else json.dumps(value)


def ladder_batch(
    slug: str, results: Sequence[AnyResult], position: int
) -> tuple[list[str], dict[str, list[int]]]:
    """The entries of `results` (logged from index `position` on) that some player keeps, each
    once, and each player's new entries as indexes into them, oldest first: only its last `KEPT`
    (a long batch formats only what the lists keep)."""
    slug_json, texts = json.dumps(slug), []
    newest_first: dict[str, list[int]] = {}
    for offset in range(len(results) - 1, -1, -1):
        result = results[offset]
        wanted = [p for p in result.players if len(newest_first.setdefault(p, [])) < KEPT]
        if wanted:
            texts.append(ladder_text(slug_json, result, position + offset))
            for player in wanted:
                newest_first[player].append(len(texts) - 1)
    return texts, {player: found[::-1] for player, found in newest_first.items()}


def ladder_pushes(slug: str, results: Sequence[AnyResult], position: int) -> dict[str, list[str]]:
    """Each player's new entries for `results`, oldest first (see `ladder_batch`)."""
    texts, indexes = ladder_batch(slug, results, position)
    return {player: [texts[i] for i in found] for player, found in indexes.items()}


def queue_pushes(pipe: redis.client.Pipeline, pushes: Mapping[str, Sequence[str]]) -> None:
    """Queue each player's new entries (oldest first) on its list, trimmed to `KEPT`."""
    for player, entries in pushes.items():
        pipe.lpush(keys.recent_matches(player), *entries)
        pipe.ltrim(keys.recent_matches(player), 0, KEPT - 1)


def is_ready(client: redis.Redis) -> bool:
    """Whether the lists hold every stored result (`arena.store.recent_backfill` ran)."""
    return bool(client.exists(keys.recent_ready()))


def read(client: redis.Redis, players: Iterable[str], limit: int) -> dict[str, list[RecentEntry]]:
    """Each player's latest `limit` entries, newest first, in one round trip."""
    names = list(players)
    pipe = client.pipeline(transaction=False)
    for player in names:
        pipe.lrange(keys.recent_matches(player), 0, limit - 1)
    lists = pipe.execute()
    return {
        player: [RecentEntry.from_json(as_text(text)) for text in raw]
        for player, raw in zip(names, lists, strict=True)
    }
