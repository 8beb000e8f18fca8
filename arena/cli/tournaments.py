"""What `arena tournament standings|crosstable` print: rich tables of an event's standings and
crosstable; the operations are `arena.services.events`. Pairs rank by match points and
tie-breaks, tables by placement points (`arena.tournament.encounter`), so each has its columns."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import redis
from rich.table import Table

from arena.ratings import BTFit, RatingError, fit_bradley_terry
from arena.services.events import (
    TABLE_BYE_POINTS,
    TIEBREAK_LABELS,
    bye_cell,
    bye_footer,
    standings_at_tables,
)
from arena.store.encounters import table_encounters
from arena.store.results import StoredTable
from arena.store.tournaments import TournamentStore
from arena.tournament import crosstable, standings
from arena.tournament.encounter import at_tables
from arena.tournament.points_text import points_text


def standings_table(client: redis.Redis, name: str) -> Table:
    """Points, tie-breaks and a Bradley-Terry rating fitted to every game of the event."""
    store = TournamentStore(client)
    definition = store.get(name)
    if at_tables(definition):
        return _table_standings(client, name)
    history, entrants = store.history(name), store.entrants(name)
    rows = standings(
        entrants, history.results, history.byes, definition.tiebreaks, definition.bye_points
    )
    fit = _rating_fit(store.games(name), entrants)
    ties = [TIEBREAK_LABELS[t] for t in definition.tiebreaks]
    caption = ", ".join(f"{short} = {long}" for short, long in ties)
    caption += f"; {bye_footer(definition.bye_points, definition.format)}"
    if fit is not None:
        caption += f"; {fit.caption()}"
    table = Table(title=f"{name}: standings ({store.status(name).value})", caption=caption)
    table.add_column("#", justify="right")
    table.add_column("entrant", no_wrap=True)
    for header in ("pts", "game pts", "n", "wins", *(short for short, _ in ties)):
        table.add_column(header, justify="right")
    table.add_column("rating", justify="right", no_wrap=True)
    for row in rows:
        table.add_row(
            str(row.rank),
            row.entrant,
            points_text(row.points),
            points_text(row.game_points),
            str(row.matches),
            str(row.wins),
            *(points_text(row.tiebreak(t)) for t in definition.tiebreaks),
            _rating_cell(fit, row.entrant),
        )
    return table


def _rating_fit(games: list[tuple[str, str, float]], entrants: Sequence[str]) -> BTFit | None:
    try:
        return fit_bradley_terry(games, entrants=entrants)
    except RatingError:
        return None  # too few games yet to say anything


def _rating_cell(fit: BTFit | None, entrant: str) -> str:
    if fit is None:
        return "-"
    estimate = fit.estimate(entrant)
    return f"{estimate.rating:.0f} ±{(estimate.high - estimate.low) / 2:.0f}"


def crosstable_table(client: redis.Redis, name: str) -> Table:
    """Rows and columns in final-rank order; byes in their own column; the footer says what a
    bye scores, from the same `ByePoints` the points column was computed with."""
    store = TournamentStore(client)
    definition = store.get(name)  # an unknown name fails here, clearly
    if at_tables(definition):
        return _table_crosstable(client, name)
    entrants, history = store.entrants(name), store.history(name)
    rows = standings(
        entrants, history.results, history.byes, definition.tiebreaks, definition.bye_points
    )
    ranked = [row.entrant for row in rows]
    grid = crosstable(entrants, history.results)
    table = Table(
        title=f"{name}: crosstable (game points)",
        caption=bye_footer(definition.bye_points, definition.format),
    )
    table.add_column("#", justify="right")
    table.add_column("entrant", no_wrap=True)
    for index, _ in enumerate(ranked, start=1):
        table.add_column(str(index), justify="center")
    table.add_column("byes")
    table.add_column("pts", justify="right")
    for index, row in enumerate(rows, start=1):
        cells = []
        for other in ranked:
            met = grid[row.entrant][other] if other != row.entrant else None
            cells.append(
                "x" if met is None else " ".join(points_text(e.game_points) for e in met) or "."
            )
        byes = [
            bye_cell(b, definition.bye_points) for b in history.byes if b.entrant == row.entrant
        ]
        table.add_row(f"{index}", row.entrant, *cells, " ".join(byes), points_text(row.points))
    return table


def _table_standings(client: redis.Redis, name: str) -> Table:
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


def _table_crosstable(client: redis.Redis, name: str) -> Table:
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
