"""Put the tournament results stored before the recent-matches lists existed into them, once.

The first reader that finds the store not `ready` (`arena.store.recent.is_ready`) calls
`backfill`: it reads every tournament's results, as the bots page did on every request before,
builds each player's list and writes them all, with the `ready` mark, in one transaction. It
WATCHes every results hash (and the set naming the tournaments): a result stored meanwhile,
which pushed onto a list about to be rewritten, makes it start again, so nothing is lost or
listed twice. Each list is rewritten whole from the results, which hold whatever a writer pushed
before too. Ladder results need nothing: the bots page reads them from the ladder histories.

Old tournament results carry no clock: a tournament's matches count as played when it was
created (the entries' `at`), a later round as more recent.
"""

from __future__ import annotations

from collections.abc import Iterator

import redis

from arena.store import keys
from arena.store.recent import KEPT, RecentEntry
from arena.store.results import StoredMatch, StoredTable
from arena.store.tournaments import TournamentStore
from arena.store.values import as_text

_Dated = tuple[tuple[float, int], RecentEntry]  # (when, round): newest last


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
    pipe.watch(keys.recent_ready(), keys.tournaments())  # type: ignore[no-untyped-call]
    if client.exists(keys.recent_ready()):
        pipe.unwatch()
        return 0
    tournaments = TournamentStore(client).names()
    watched = []
    for name in tournaments:
        watched += [keys.tournament_results(name), keys.table_results(name)]
    if watched:
        pipe.watch(*watched)  # type: ignore[no-untyped-call]
    dated = list(_tournament_entries(client, tournaments))
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
            match = StoredMatch.from_json(as_text(text))
            yield (when, match.result.round), match.recent_entry(name, when)
        for text in client.hvals(keys.table_results(name)):
            table = StoredTable.from_json(as_text(text))
            yield (when, table.round), table.recent_entry(name, when)
