"""Points as people read them: two decimals at most, trailing zeros dropped, in the CLI's and the
site's tables alike; the exports keep every digit. A 4-seat table's placement points are
thirds, and a tie of the last two splits 1/3 into sixths."""

from __future__ import annotations

import json

import redis
from rich.console import Console
from rich.table import Table

from arena.cli import tournaments
from arena.services import events
from arena.store.encounters import table_encounters
from arena.store.results import StoredTable
from arena.store.tournaments import TournamentStore
from arena.tournament import TableRound, table_standings
from arena.tournament.definition import Format, TournamentDefinition
from arena.tournament.points_text import points_text
from arena.web import tournament_views as views

FIELD = ("ann", "bob", "cat", "dan")


def test_points_have_two_decimals_at_most_and_no_trailing_zeros() -> None:
    shown = [points_text(v) for v in (11 / 3, 1 / 6, 5 / 6, 1.5, 2.0, 0.0, -1e-12, 0.5, 2 / 3)]
    assert shown == ["3.67", "0.17", "0.83", "1.5", "2", "0", "0", "0.5", "0.67"]


def tables() -> list[StoredTable]:
    """Two 4-seat tables: bob and cat tie for last at the first (1/6 each), ann wins both; at
    the second bob is second (2/3), dan third (1/3), cat last."""
    seats = (FIELD, ("dan", "ann", "bob", "cat"))
    points = ((30.0, 0.0, 0.0, 20.0), (10.0, 30.0, 20.0, 0.0))
    cards, wins = (40, 30, 20, 10), (1, 0, 0, 0)
    return [
        StoredTable(
            f"quad.r{n}.b0",
            n,
            seats[n - 1],
            points[n - 1],
            cards,
            wins,
            (f"quad.r{n}.b0.g0",),
            ("normal",),
        )
        for n in (1, 2)
    ]


def stored(client: redis.Redis) -> None:
    definition = TournamentDefinition(
        "quad", Format.ROUND_ROBIN, FIELD, game="age-of-thieves", table_size=4,
        games_per_match=4, duplicate=False,
    )  # fmt: skip
    TournamentStore(client).create(definition)
    store = table_encounters(client)
    for table in tables():
        store.save_round("quad", TableRound(table.round, (table.entrants,)))
        store.record("quad", table)


def render(table: Table) -> str:
    console = Console(record=True, width=200)
    console.print(table)
    return console.export_text()


def test_the_site_shows_placement_points_of_4_seat_tables_rounded() -> None:
    ranked = ["ann", "dan", "bob", "cat"]  # 2, 2/3 + 1/3, 1/6 + 2/3, 1/6 + 0
    grid = views.table_crosstable(ranked, tables())
    assert [c.text for c in grid.rows[2][2:]] == ["0.17 0.67", "0.17 0.67", "x", "0.17 0.67"]
    assert [c.text for c in grid.rows[3][2:]] == ["0.17 0", "0.17 0", "0.17 0", "x"]
    standings = views.table_standings(
        table_standings(FIELD, [t.result for t in tables()], [], events.TABLE_BYE_POINTS), {}
    )
    assert standings.column("pts") == ["2", "1", "0.83", "0.17"]
    rounds = views.event_rounds("quad", [TableRound(1, (FIELD,))], {"quad.r1.b0": tables()[0]})
    assert rounds[0].boards[0].result == "30 - 0 - 0 - 20"


def test_the_cli_shows_them_rounded_and_the_exports_keep_every_digit(
    redis_client: redis.Redis,
) -> None:
    stored(redis_client)
    standings = render(tournaments.standings_table(redis_client, "quad"))
    rows = {line.split("│")[2].strip(): line.split("│")[3].strip() for line in
            standings.splitlines() if line.count("│") > 8}  # fmt: skip
    assert rows == {"ann": "2", "dan": "1", "bob": "0.83", "cat": "0.17"}
    crosstable = render(tournaments.crosstable_table(redis_client, "quad"))
    assert "0.17" in crosstable and "0.166" not in crosstable
    exported = json.loads(events.export(redis_client, "quad", "json"))
    points = {s["entrant"]: s["points"] for s in exported["standings"]}
    assert points["cat"] == 1 / 6 and abs(points["bob"] - 5 / 6) < 1e-12
    csv = events.export(redis_client, "quad", "csv")
    assert f"cat,{1 / 6!r}," in csv and f"bob,{points['bob']!r}," in csv
