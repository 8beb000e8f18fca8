"""Put the results stored before the recent-matches lists existed into them, once.

The first reader that finds the store not `ready` (`arena.store.recent.is_ready`) calls
`backfill`: it reads every tournament's and ladder's results, as the bots page did on every
request before, builds each player's list and writes them all, with the `ready` mark, in one
transaction. It WATCHes every results hash (and the sets naming the tournaments and ladders):
a result stored meanwhile, which pushed onto a list about to be rewritten, makes it start again,
so nothing is lost or listed twice. Each list is rewritten whole from the results, which hold
whatever a writer pushed before too.

Old tournament results carry no clock: a tournament's matches count as played when it was
created, a later round as more recent; ladder results have their time.
"""

from __future__ import annotations

from collections.abc import Iterator

import redis

from arena.store import keys
from arena.store.ladders import LadderStore
from arena.store.rating_records import result_from_json
from arena.store.recent import KEPT, RecentEntry, ladder_entry, tournament_entry
from arena.store.table_rounds import StoredTable
from arena.store.tournaments import StoredMatch, TournamentStore
from arena.store.values import as_text

_Dated = tuple[tuple[float, int], RecentEntry]  # (when, number): newest last


def backfill(client: redis.Redis) -> int:
    """Build every player's list from the stored results, unless done already; the number of
    results read (0 if the lists were ready)."""
    with client.pipeline() as pipe:
        while True:
            try:
                return _attempt(client, pipe)
            except redis.WatchError:
                continue  # a result was stored meanwhile: read again


def _attempt(client: redis.Redis, pipe: redis.client.Pipeline) -> int:
    pipe.watch(keys.recent_ready(), keys.tournaments(), keys.ladders())  # type: ignore[no-untyped-call]
    if client.exists(keys.recent_ready()):
        pipe.unwatch()
        return 0
    tournaments = TournamentStore(client).names()
    slugs = [ladder.ref.slug for ladder in LadderStore(client).all()]
    watched = [keys.ladder_applied(slug) for slug in slugs]
    for name in tournaments:
        watched += [keys.tournament_results(name), keys.table_results(name)]
    if watched:
        pipe.watch(*watched)  # type: ignore[no-untyped-call]
    dated = [*_tournament_entries(client, tournaments), *_ladder_entries(client, slugs)]
    lists: dict[str, list[_Dated]] = {}
    for item in dated:
        for player in dict.fromkeys(item[1].sides):
            lists.setdefault(player, []).append(item)
    pipe.multi()
    for player, items in lists.items():
        newest = sorted(items, key=lambda item: item[0], reverse=True)[:KEPT]
        pipe.delete(keys.recent_matches(player))
        pipe.rpush(keys.recent_matches(player), *(entry.to_json() for _, entry in newest))
    pipe.set(keys.recent_ready(), "1")
    pipe.execute()
    return len(dated)


def _tournament_entries(client: redis.Redis, names: list[str]) -> Iterator[_Dated]:
    for name in names:
        created = client.hget(keys.tournament(name), "created")
        when = float(as_text(created)) if created is not None else 0.0
        for text in client.hvals(keys.tournament_results(name)):
            m = StoredMatch.from_json(as_text(text))
            r = m.result
            sides, scores = (r.seat0, r.seat1), (r.game_points0, r.game_points1)
            yield (when, r.round), tournament_entry(name, r.round, sides, scores, m.game_ids)
        for text in client.hvals(keys.table_results(name)):
            t = StoredTable.from_json(as_text(text))
            yield (when, t.round), tournament_entry(name, t.round, t.entrants, t.points, t.game_ids)


def _ladder_entries(client: redis.Redis, slugs: list[str]) -> Iterator[_Dated]:
    for slug in slugs:
        for position, text in enumerate(client.lrange(keys.ladder_log(slug), 0, -1)):
            result = result_from_json(as_text(text))
            yield (result.at, position), ladder_entry(slug, result, position)
