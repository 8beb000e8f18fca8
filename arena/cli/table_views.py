"""What `arena tournament status|standings|crosstable|export` show for a tournament of tables
(a game of three or more sides): placement points, wins, average score and byes."""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterable

import redis
from rich.table import Table

from arena.store.table_rounds import StoredTable, TableStore, table_round_to_json
from arena.store.tournaments import Status, TournamentStore
from arena.tournament import TableStanding, table_standings
from arena.tournament.definition import max_pod_rounds
from arena.tournament.placement import DEFAULT_BYE_POINTS
from arena.tournament.points_text import points_text

BYE_POINTS = DEFAULT_BYE_POINTS  # what pairing uses too (`pods.pair_pods`' default)


def default_rounds(entrants: int, size: int) -> int:
    """Enough rounds of pods for one entrant to win them all: log base `size` of the field."""
    if entrants < size:
        return 1  # the definition then explains what is wrong
    return max(1, min(math.ceil(math.log(entrants, size) - 1e-9), max_pod_rounds(entrants, size)))


def progress(client: redis.Redis, name: str) -> tuple[int, int, int, Status]:
    """(tables recorded, tables scheduled, rounds planned, status)."""
    tournaments, store = TournamentStore(client), TableStore(client)
    scheduled = sum(len(r.tables) for r in store.rounds(name))
    planned = tournaments.get(name).planned_rounds
    return len(store.recorded(name)), scheduled, planned, tournaments.status(name)


def standings(client: redis.Redis, name: str) -> list[TableStanding]:
    """The standings from the stored tables and byes (`placement.table_standings`)."""
    history = TableStore(client).history(name)
    entrants = TournamentStore(client).entrants(name)
    return table_standings(entrants, history.results, history.byes, BYE_POINTS)


def standings_table(client: redis.Redis, name: str) -> Table:
    rows = standings(client, name)
    cards = _mean_cards(TableStore(client).results(name).values())
    # A duplicate table seats everyone in every seat (V12): seat counts would say nothing.
    show_seats = not TournamentStore(client).get(name).duplicate
    caption = (
        "pts = placement points (first 1, last 0, ties split) plus byes "
        f"({points_text(BYE_POINTS)} each); wins = tables finished first; "
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
    ranked = [row.entrant for row in standings(client, name)]
    shared: dict[tuple[str, str], list[float]] = {}
    results = sorted(TableStore(client).results(name).values(), key=lambda t: t.table_id)
    for stored in results:
        points = dict(zip(stored.entrants, stored.result.points, strict=True))
        for entrant in stored.entrants:
            for other in stored.entrants:
                if other != entrant:
                    shared.setdefault((entrant, other), []).append(points[entrant])
    table = Table(
        title=f"{name}: crosstable (placement points at shared tables)",
        caption=f"a bye scores {points_text(BYE_POINTS)}",
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


def export(client: redis.Redis, name: str, fmt: str) -> str:
    if fmt == "trf":
        raise ValueError(
            f"{name} is a tournament of tables: TRF is for two-sided games; "
            "use --format json or csv"
        )
    rows = standings(client, name)
    if fmt == "json":
        return _json(client, name, rows)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["rank", "entrant", "points", "tables", "wins", "average_score", "byes"])
    for r in rows:
        writer.writerow([r.rank, r.entrant, r.points, r.tables, r.wins, r.average_score, r.byes])
    return out.getvalue()


def _json(client: redis.Redis, name: str, rows: list[TableStanding]) -> str:
    tournaments, store = TournamentStore(client), TableStore(client)
    return json.dumps(
        {
            "definition": json.loads(tournaments.get(name).to_json()),
            "status": tournaments.status(name).value,
            "standings": [
                {
                    "rank": r.rank,
                    "entrant": r.entrant,
                    "points": r.points,
                    "tables": r.tables,
                    "wins": r.wins,
                    "average_score": r.average_score,
                    "byes": r.byes,
                    "seats": list(r.seats),
                }
                for r in rows
            ],
            "rounds": [json.loads(table_round_to_json(r)) for r in store.rounds(name)],
            "tables": [json.loads(t.to_json()) for t in store.results(name).values()],
        },
        indent=2,
        sort_keys=True,
    )
