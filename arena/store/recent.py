"""Each player's recent matches, for the bots page, read in one pipeline however many were played.

Two sources, both written once per result by the path that stores it:

- a tournament's match or table goes on its players' own short list (`arena:recent:<player>`,
  newest first, trimmed to `KEPT`): `record_once`, one Lua script that stores the result with
  HSETNX and pushes only if it was new (`Encounters.record`, pairs and tables alike);
- a rated ladder result is already in each player's ladder history (`keys.ladder_history`, one
  entry per result, `ratings.records.history_entry`), written by the exactly-once rating path:
  the reader takes the last few entries of each history, so the rating hot path writes nothing
  more for this page (a push per result would slow every batch of ratings).

So a result stored once is listed once, whatever the retries. `read` merges both, newest first:
tournament entries carry the time they were recorded (`at`), history entries the result's time.
SPRT pairs are not listed (the bots page does not show them). Tournament results stored before
the lists existed are put in them once by `arena.store.recent_backfill`, which then marks the
store `ready`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import redis

from arena.store import keys
from arena.store.ladders import LadderDefinition
from arena.store.values import as_text

KEPT = 10  # tournament entries kept per player: the bots page shows 6

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
    """One match (or table) as the bots page lists it.

    A tournament's entry lists every side with its score, from nobody's side. A ladder's comes
    from one player's history: `sides` is that player, then its opponents (one text); a two-sided
    result has both shares, a table only the player's share, with its `place` (the history holds
    no other side's score)."""

    kind: str  # TOURNAMENT or LADDER
    where: str  # the tournament's name or the ladder's slug
    label: str  # "round 3", "match 17"
    sides: tuple[str, ...]  # every player; a team's players each get the team's score
    scores: tuple[float, ...]  # in `sides` order
    game: str  # its first game's id, "" if none
    at: float = 0.0  # when it was recorded (unix time); 0 in entries written before times were
    place: int = 0  # a ladder table's: the player's place (1 = first); 0 otherwise

    def to_json(self) -> str:
        """A tournament entry's stored form (ladder entries are never stored)."""
        sides, scores = list(self.sides), list(self.scores)
        return json.dumps([self.kind, self.where, self.label, sides, scores, self.game, self.at])

    @classmethod
    def from_json(cls, text: str) -> RecentEntry:
        kind, where, label, sides, scores, game, *at = json.loads(text)
        return cls(kind, where, label, tuple(sides), tuple(scores), game, float(at[0] if at else 0))


def tournament_entry(
    name: str, round_number: int, sides: Sequence[str], scores: Sequence[float],
    game_ids: Sequence[str], at: float | None = None,
) -> RecentEntry:  # fmt: skip
    """A tournament's match or table, recorded `at` (None: now, as it is being recorded)."""
    first = game_ids[0] if game_ids else ""
    when = time.time() if at is None else at
    label = f"round {round_number}"
    return RecentEntry(TOURNAMENT, name, label, tuple(sides), tuple(scores), first, when)


def ladder_entry(slug: str, player: str, history: str, sides: int) -> RecentEntry:
    """A rated result from `player`'s side, from its `history` entry on a ladder whose games
    have `sides` sides. Its first game is `<result id>.g0`: the workers rate a result from its
    games, so one was played (the history does not say how many)."""
    h = json.loads(history)
    share = float(h["score"])
    scores, place = ((share, 1 - share), 0) if sides == 2 else ((share,), int(h["place"]))
    label, game = f"match {int(h['position']) + 1}", f"{h['result']}.g0"
    opponents = (player, str(h["opponent"]))
    return RecentEntry(LADDER, slug, label, opponents, scores, game, float(h["at"]), place)


def record_once(
    client: redis.Redis, results: str, field: str, value: str, entry: RecentEntry
) -> bool:
    """HSETNX `field` of the hash `results` and, if it was new, list `entry` for its players."""
    lists = [keys.recent_matches(player) for player in dict.fromkeys(entry.sides)]
    stored = client.eval(
        _RECORD_ONCE, 1 + len(lists), results, *lists, field, value, entry.to_json(), KEPT
    )
    return bool(stored)


def is_ready(client: redis.Redis) -> bool:
    """Whether the lists hold every stored result (`arena.store.recent_backfill` ran)."""
    return bool(client.exists(keys.recent_ready()))


def read(client: redis.Redis, players: Iterable[str], limit: int) -> dict[str, list[RecentEntry]]:
    """Each player's latest `limit` matches, newest first: the ladders' names, then one pipeline
    of every ladder's definition and, per player, its list and the last `limit` entries of its
    history on each ladder (empty where it never played)."""
    names = list(players)
    slugs = sorted(as_text(slug) for slug in client.smembers(keys.ladders()))
    pipe = client.pipeline(transaction=False)
    for slug in slugs:
        pipe.hget(keys.ladder(slug), "definition")
    for player in names:
        pipe.lrange(keys.recent_matches(player), 0, KEPT - 1)
        for slug in slugs:
            pipe.lrange(keys.ladder_history(slug, player), -limit, -1)
    replies = iter(pipe.execute())
    sides = {slug: _sides(next(replies)) for slug in slugs}
    found = {}
    for player in names:
        listed = (RecentEntry.from_json(as_text(text)) for text in next(replies))
        # Lists written before the ladders' entries came from the histories held those too.
        entries = [entry for entry in listed if entry.kind == TOURNAMENT]
        for slug in slugs:
            newest_first = reversed(next(replies))
            entries += (ladder_entry(slug, player, as_text(t), sides[slug]) for t in newest_first)
        # Stable: each source's own order stands among equal times (a backfilled tournament's).
        entries.sort(key=lambda entry: entry.at, reverse=True)
        found[player] = entries[:limit]
    return found


def _sides(fixed: bytes | str | None) -> int:
    """The sides of a ladder's games, from its stored definition (2 if it is gone)."""
    return LadderDefinition.from_stored(as_text(fixed), ()).sides if fixed is not None else 2
