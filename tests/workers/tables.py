"""Checking a tournament of tables against its game records: each record replayed, each entrant
in the seats its rotation says (V12), each result and the standings computed again."""

from __future__ import annotations

from collections import Counter

import redis

from arena.games import get_game
from arena.games.record import GameRecord, replay
from arena.referee.scoring import score_table
from arena.referee.seats import layout, lineup
from arena.services import events
from arena.store import keys
from arena.store.encounters import table_encounters
from arena.store.results import StoredTable
from arena.store.tournaments import TournamentStore
from arena.store.values import as_text
from arena.tournament import TableResult, table_standings


def replayed_result(client: redis.Redis, name: str, table: StoredTable) -> TableResult:
    """The table's result computed again from its replayed records, after checking that every
    game's seats are the rotation's (entrant i plays side (i + g) mod 3 in game g) and that the
    stored result is what the records give."""
    definition = TournamentStore(client).get(name)
    seating = layout(get_game(definition.game), definition.config)
    games, seeds = [], []
    for index, game_id in enumerate(table.game_ids):
        record = _record(client, game_id)
        _, result = replay(record)  # raises unless the stored result is what the actions give
        assert result is not None and record.termination == "normal", game_id
        rotation = index % len(table.entrants)
        assert record.players == seating.seat_names(lineup(table.entrants, rotation)), game_id
        seeds.append(record.seed)
        games.append((result, record.players))
    k = len(table.entrants)
    assert seeds == [seeds[0] + i // k for i in range(len(seeds))], "each deal once per rotation"
    score = score_table(table.entrants, games, seating, definition.duplicate)
    assert (score.points, score.cards, score.wins) == (table.points, table.cards, table.wins)
    seats = Counter((name, seat) for _, players in games for seat, name in enumerate(players))
    assert set(seats.values()) == {1} and len(seats) == len(table.entrants) ** 2, (
        "a duplicate table puts every entrant in every seat once (V12)"
    )
    return TableResult(table.round, score.entrants, score.points)


def assert_standings_are_the_records(client: redis.Redis, name: str) -> list[TableResult]:
    """Every table replayed, and the standings shown equal to those of the replayed results."""
    stored = table_encounters(client).results(name)
    replayed = [replayed_result(client, name, table) for table in stored.values()]
    byes = [b for r in table_encounters(client).rounds(name) for b in r.bye_records]
    entrants = TournamentStore(client).entrants(name)
    expected = table_standings(entrants, replayed, byes, events.TABLE_BYE_POINTS)
    assert events.standings_at_tables(client, name) == expected
    return replayed


def _record(client: redis.Redis, game_id: str) -> GameRecord:
    stored = client.get(keys.game_record(game_id))
    assert stored is not None, f"no record of game {game_id}"
    return GameRecord.loads(as_text(stored))
