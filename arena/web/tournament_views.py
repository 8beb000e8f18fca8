"""View models of the tournament pages: pure functions from store values to what a page shows.

Nothing here reads Redis or knows HTTP: `arena.web.tournaments` reads the store and hands the
values over, and the unit tests build the same values by hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena.ratings import BTFit
from arena.services.events import TABLE_BYE_POINTS, TIEBREAK_LABELS, bye_cell, bye_footer
from arena.store.results import StoredEncounter, StoredTable, match_id
from arena.store.tournaments import Status
from arena.tournament import (
    Bye,
    Crosstable,
    MatchResult,
    Standing,
    TableRound,
    TableStanding,
)
from arena.tournament.definition import TournamentDefinition
from arena.tournament.encounter import EventRound, at_tables, boards, sides
from arena.tournament.points_text import points_text
from arena.web import links
from arena.web.grid import Cell, Grid, headers, num


@dataclass(frozen=True, slots=True)
class Progress:
    """How far a tournament has got: what the live script polls."""

    status: str
    done: int  # matches (tables) recorded
    scheduled: int  # matches (tables) of the rounds paired so far
    rounds: int  # rounds paired so far
    planned: int  # rounds planned
    reason: str = ""  # why a stopped tournament stopped

    @property
    def percent(self) -> int:
        return 0 if self.scheduled == 0 else round(100 * self.done / self.scheduled)

    @property
    def live(self) -> bool:
        """The page keeps polling while this holds."""
        return self.status in (Status.CREATED.value, Status.RUNNING.value)

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "done": self.done,
            "scheduled": self.scheduled,
            "rounds": self.rounds,
            "planned": self.planned,
            "percent": self.percent,
            "reason": self.reason,
            "live": self.live,
        }


@dataclass(frozen=True, slots=True)
class Summary:
    """One line of the tournaments list."""

    name: str
    url: str
    kind: str  # "Swiss, tables of 3", "round-robin"
    game: str
    entrants: int
    progress: Progress


@dataclass(frozen=True, slots=True)
class GameLink:
    label: str
    url: str


@dataclass(frozen=True, slots=True)
class Board:
    """One pairing (or table) of a round, with its result once played."""

    board: int
    sides: tuple[str, ...]
    result: str  # "1.5 - 0.5", "first: a", "" while unplayed
    games: tuple[GameLink, ...]
    forfeit: bool


@dataclass(frozen=True, slots=True)
class RoundView:
    number: int
    boards: tuple[Board, ...]
    byes: tuple[str, ...]  # "name (U)" texts

    @property
    def played(self) -> int:
        return sum(1 for b in self.boards if b.result)


def kind(definition: TournamentDefinition) -> str:
    tables = f", tables of {sides(definition)}" if at_tables(definition) else ""
    return definition.format.value + tables


def summary(definition: TournamentDefinition, entrants: int, progress: Progress) -> Summary:
    name = definition.name
    return Summary(
        name, links.tournament_url(name), kind(definition), definition.game, entrants, progress
    )


def facts(definition: TournamentDefinition, status: str) -> list[tuple[str, str]]:
    """The definition as label/value pairs. The seed fixes every deal: it is shown only once
    the tournament has finished, so nobody can replay the deals of games still to come."""
    tc = definition.time_control
    shown = [
        ("format", kind(definition)),
        ("game", definition.game),
        ("config", ", ".join(f"{k} {v}" for k, v in sorted(definition.config.items()))),
        ("rounds planned", str(definition.planned_rounds)),
        ("games a match", str(definition.games_per_match)),
        ("deals", "duplicate" if definition.duplicate else "fresh"),
        ("time control", f"{tc.move_ms} ms a move + {tc.bank_ms} ms bank"),
    ]
    if status == Status.FINISHED.value:
        shown.append(("seed", str(definition.seed)))
    return shown


def _game_links(game_ids: Sequence[str]) -> tuple[GameLink, ...]:
    return tuple(
        GameLink(str(links.game_number(g) or i + 1), links.game_url(g))
        for i, g in enumerate(game_ids)
    )


def event_rounds(
    name: str, rounds: Iterable[EventRound], results: Mapping[str, StoredEncounter]
) -> list[RoundView]:
    """Round by round: each board's entrants in seat order, its game points and links to its
    games, and the round's byes."""
    views = []
    for round_ in rounds:
        shown = []
        for board, seated in enumerate(boards(round_)):
            stored = results.get(match_id(name, round_.number, board))
            text, forfeit = "", False
            games: tuple[GameLink, ...] = ()
            if stored is not None:
                text = " - ".join(points_text(p) for p in stored.points)
                games, forfeit = _game_links(stored.game_ids), stored.forfeit
            shown.append(Board(board + 1, seated, text, games, forfeit))
        views.append(RoundView(round_.number, tuple(shown), _byes(round_)))
    return views


def _byes(round_: EventRound) -> tuple[str, ...]:
    """A pair round's byes say why ("a (pairing bye)"); at tables a bye is only ever one kind."""
    if isinstance(round_, TableRound):
        return round_.byes
    return tuple(f"{b.entrant} ({_bye_code(b)})" for b in round_.byes)


def _bye_code(bye: Bye) -> str:
    return "pairing bye" if bye.kind.value == "pairing" else "missed round"


def pair_standings(
    definition: TournamentDefinition,
    rows: Sequence[Standing],
    fit: BTFit | None,
) -> Grid:
    """Points, tie-breaks in the order they break ties, and the Bradley-Terry rating with its
    95% interval (fitted to every game of the event)."""
    ties = [TIEBREAK_LABELS[t] for t in definition.tiebreaks]
    names = ["#", "entrant", "pts", "game pts", "matches", "wins", *(s for s, _ in ties)]
    columns = headers([*names, "rating", "95% interval"], numeric=[*names[2:], "rating"])
    columns = tuple(Cell(c.text, css=c.css, title=dict(ties).get(c.text, "")) for c in columns)
    body = []
    for row in rows:
        body.append(
            (
                num(str(row.rank)),
                Cell(row.entrant),
                num(points_text(row.points)),
                num(points_text(row.game_points)),
                num(str(row.matches)),
                num(str(row.wins)),
                *(num(points_text(row.tiebreak(t))) for t in definition.tiebreaks),
                *_rating_cells(fit, row.entrant),
            )
        )
    caption = "; ".join(f"{short} = {long}" for short, long in ties)
    caption += f"; {bye_footer(definition.bye_points, definition.format)}"
    if fit is not None:
        caption += f"; {fit.caption()}"
    else:
        caption += "; rating: too few games yet for a Bradley-Terry fit"
    wide = ("game pts", "matches", "wins", *(short for short, _ in ties), "95% interval")
    return Grid(columns, tuple(body), caption, dom_id="standings", wide=wide)


def _rating_cells(fit: BTFit | None, entrant: str) -> tuple[Cell, Cell]:
    if fit is None:
        return num("-"), Cell("-", css="muted")
    try:
        e = fit.estimate(entrant)
    except KeyError:
        return num("-"), Cell("-", css="muted")
    return num(f"{e.rating:.0f}"), Cell(f"{e.low:.0f} to {e.high:.0f}", css="muted")


def pair_crosstable(
    definition: TournamentDefinition,
    rows: Sequence[Standing],
    grid: Crosstable,
    byes: Sequence[Bye],
) -> Grid:
    """Rows and columns in rank order; each cell lists the row's game points in each match
    against the column's entrant, byes in their own column (as `arena tournament crosstable`)."""
    ranked = [row.entrant for row in rows]
    columns = headers(
        ["#", "entrant", *(str(i) for i in range(1, len(ranked) + 1)), "byes", "pts"],
        numeric=["pts"],
    )
    body = []
    for index, row in enumerate(rows, start=1):
        cells = []
        for other in ranked:
            if other == row.entrant:
                cells.append(Cell("x", css="self"))
                continue
            met = grid[row.entrant][other]
            cells.append(Cell(" ".join(points_text(e.game_points) for e in met) or "."))
        own = [bye_cell(b, definition.bye_points) for b in byes if b.entrant == row.entrant]
        body.append(
            (
                num(str(index)),
                Cell(row.entrant),
                *cells,
                Cell(" ".join(own)),
                num(points_text(row.points)),
            )
        )
    caption = "game points; " + bye_footer(definition.bye_points, definition.format)
    return Grid(columns, tuple(body), caption, css="crosstable", dom_id="crosstable")


def swiss_crosstable(
    definition: TournamentDefinition,
    rows: Sequence[Standing],
    results: Iterable[MatchResult],
    byes: Sequence[Bye],
    rounds: int,
) -> Grid:
    """A Swiss's crosstable as a wall chart: one column a round, each cell the opponent's rank
    and the game points scored against them, so it stays readable at a thousand entrants."""
    rank = {row.entrant: index for index, row in enumerate(rows, start=1)}
    cells: dict[tuple[str, int], Cell] = {}
    for r in results:
        for own, other, points in (
            (r.seat0, r.seat1, r.game_points0),
            (r.seat1, r.seat0, r.game_points1),
        ):
            mark = " forfeit" if r.forfeit else ""
            text = f"{rank[other]}: {points_text(points)}"
            cells[(own, r.round)] = Cell(text, css=f"center{mark}", title=f"against {other}")
    for bye in byes:
        cells[(bye.entrant, bye.round)] = Cell(
            bye_cell(bye, definition.bye_points).split()[1], css="center"
        )
    columns = headers(["#", "entrant", *(f"r{n}" for n in range(1, rounds + 1)), "pts"], ["pts"])
    body = tuple(
        (
            num(str(rank[row.entrant])),
            Cell(row.entrant),
            *(cells.get((row.entrant, n), Cell("", css="center")) for n in range(1, rounds + 1)),
            num(points_text(row.points)),
        )
        for row in rows
    )
    caption = (
        "each round: the opponent's rank, then the game points scored against them; "
        + bye_footer(definition.bye_points, definition.format)
    )
    return Grid(columns, body, caption, css="crosstable", dom_id="crosstable")


def table_standings(rows: Sequence[TableStanding], cards: Mapping[str, float]) -> Grid:
    names = ["#", "entrant", "pts", "tables", "wins", "avg", "cards", "byes"]
    body = tuple(
        (
            num(str(r.rank)),
            Cell(r.entrant),
            num(points_text(r.points)),
            num(str(r.tables)),
            num(str(r.wins)),
            num(f"{r.average_score:.2f}"),
            num(f"{cards.get(r.entrant, 0.0):.1f}"),
            num(str(r.byes)),
        )
        for r in rows
    )
    caption = (
        "pts = placement points (first 1, last 0, ties split) plus byes "
        f"({points_text(TABLE_BYE_POINTS)} each); wins = tables finished first; "
        "avg = game points a table; "
        "cards = card points a table"
    )
    wide = ("tables", "avg", "cards", "byes")
    return Grid(headers(names, numeric=names[2:]), body, caption, dom_id="standings", wide=wide)


def mean_cards(tables: Iterable[StoredTable]) -> dict[str, float]:
    totals: dict[str, list[int]] = {}
    for table in tables:
        for entrant, cards in zip(table.entrants, table.cards, strict=True):
            totals.setdefault(entrant, []).append(cards)
    return {e: sum(c) / len(c) for e, c in totals.items()}


def table_crosstable(ranked: Sequence[str], tables: Iterable[StoredTable]) -> Grid:
    """Each cell: the placement points the row's entrant took at every table it shared with
    the column's."""
    shared: dict[tuple[str, str], list[float]] = {}
    for stored in sorted(tables, key=lambda t: t.table_id):
        points = dict(zip(stored.entrants, stored.result.points, strict=True))
        for entrant in stored.entrants:
            for other in stored.entrants:
                if other != entrant:
                    shared.setdefault((entrant, other), []).append(points[entrant])
    columns = headers(["#", "entrant", *(str(i) for i in range(1, len(ranked) + 1))])
    body = []
    for index, entrant in enumerate(ranked, start=1):
        cells = [
            Cell("x", css="self")
            if other == entrant
            else Cell(" ".join(points_text(p) for p in shared.get((entrant, other), [])) or ".")
            for other in ranked
        ]
        body.append((num(str(index)), Cell(entrant), *cells))
    caption = f"placement points at shared tables; a bye scores {points_text(TABLE_BYE_POINTS)}"
    return Grid(columns, tuple(body), caption, css="crosstable", dom_id="crosstable")
