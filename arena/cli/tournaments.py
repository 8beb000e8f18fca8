"""What `arena tournament standings|crosstable` print: rich tables of an event's standings and
crosstable (pairs here, tables in `table_views`); the operations are `arena.services.events`."""

from __future__ import annotations

from collections.abc import Sequence

import redis
from rich.table import Table

from arena.cli import table_views
from arena.ratings import BTFit, RatingError, fit_bradley_terry
from arena.services.events import TIEBREAK_LABELS, bye_cell, bye_footer
from arena.store.tournaments import TournamentStore
from arena.tournament import crosstable, standings
from arena.tournament.points_text import points_text


def standings_table(client: redis.Redis, name: str) -> Table:
    """Points, tie-breaks and a Bradley-Terry rating fitted to every game of the event."""
    store = TournamentStore(client)
    definition = store.get(name)
    if definition.table_size:
        return table_views.standings_table(client, name)
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
    if definition.table_size:
        return table_views.crosstable_table(client, name)
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
