"""What `arena tournament standings|crosstable` print for a tournament of tables (a game of three
or more sides): placement points, wins, average score and byes."""

from __future__ import annotations

from collections.abc import Iterable

import redis
from rich.table import Table

from arena.services.events import TABLE_BYE_POINTS, standings_at_tables
from arena.store.encounters import table_encounters
from arena.store.results import StoredTable
from arena.store.tournaments import TournamentStore
from arena.tournament.points_text import points_text


def standings_table(client: redis.Redis, name: str) -> Table:
    rows = standings_at_tables(client, name)
    cards = _mean_cards(table_encounters(client).results(name).values())
    # A duplicate table seats everyone in every seat (V12): seat counts would say nothing.
    show_seats = not TournamentStore(client).get(name).duplicate
    caption = (
        "pts = placement points (first 1, last 0, ties split) plus byes "
        f"({points_text(TABLE_BYE_POINTS)} each); wins = tables finished first; "
        "avg = game points a table "
        "(each deal of a duplicate table ranks its entrants, V12); cards = card points a table"
    )
    status = TournamentStore(client).status(name).value
    table = Table(title=f"{name}: standings ({status})", caption=caption)
    headers = ["#", "entrant", "pts", "tables", "wins", "avg", "cards", "byes"]
    for header in headers + (["seats"] if show_seats else []):
        table.add_column(header, justify="left" if header == "entrant" else "right")
    for row in rows:
        seats = ["/".join(str(n) for n in row.seats)] if show_seats else []
        table.add_row(
            str(row.rank), row.entrant, points_text(row.points), str(row.tables), str(row.wins),
            f"{row.average_score:.2f}", f"{cards.get(row.entrant, 0.0):.1f}", str(row.byes),
            *seats,
        )  # fmt: skip
    return table


def _mean_cards(tables: Iterable[StoredTable]) -> dict[str, float]:
    totals: dict[str, list[int]] = {}
    for table in tables:
        for entrant, cards in zip(table.entrants, table.cards, strict=True):
            totals.setdefault(entrant, []).append(cards)
    return {e: sum(c) / len(c) for e, c in totals.items()}


def crosstable_table(client: redis.Redis, name: str) -> Table:
    """Rows and columns in rank order: each cell lists the placement points the row's entrant
    took at every table it shared with the column's."""
    ranked = [row.entrant for row in standings_at_tables(client, name)]
    shared: dict[tuple[str, str], list[float]] = {}
    results = sorted(table_encounters(client).results(name).values(), key=lambda t: t.table_id)
    for stored in results:
        points = dict(zip(stored.entrants, stored.result.points, strict=True))
        for entrant in stored.entrants:
            for other in stored.entrants:
                if other != entrant:
                    shared.setdefault((entrant, other), []).append(points[entrant])
    table = Table(
        title=f"{name}: crosstable (placement points at shared tables)",
        caption=f"a bye scores {points_text(TABLE_BYE_POINTS)}",
    )
    table.add_column("#", justify="right")
    table.add_column("entrant", no_wrap=True)
    for index, _ in enumerate(ranked, start=1):
        table.add_column(str(index), justify="center")
    for index, entrant in enumerate(ranked, start=1):
        cells = [_cell(shared, entrant, other) for other in ranked]
        table.add_row(str(index), entrant, *cells)
    return table


def _cell(shared: dict[tuple[str, str], list[float]], entrant: str, other: str) -> str:
    if other == entrant:
        return "x"
    return " ".join(points_text(p) for p in shared.get((entrant, other), [])) or "."
