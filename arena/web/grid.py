"""A table as the templates draw it: header cells and rows of cells, each maybe a link.

Every page's tables (standings, crosstables, ladders, bots) are built as a `Grid` by a pure view
model, so the unit tests read exactly the text and links a page will show, and one function
(`grid_html`, the templates' `grid` macro) draws them all. It writes the HTML in Python, every
text escaped as the templates escape it: a 1,024-entrant crosstable has some 13,000 cells,
which a Jinja loop with a few tests per cell drew several times slower.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence, Set
from dataclasses import dataclass, replace

from markupsafe import Markup, escape

REVOKED_NOTE = "revoked: this bot plays no more; its results stand"


@dataclass(frozen=True, slots=True)
class Cell:
    text: str
    url: str | None = None
    css: str = ""  # "num" right-aligns a number; "center", "self", "forfeit", "muted", "ident"
    title: str = ""  # a tooltip: what a short header or code means


@dataclass(frozen=True, slots=True)
class Grid:
    columns: tuple[Cell, ...]
    rows: tuple[tuple[Cell, ...], ...]
    caption: str = ""
    css: str = ""  # the table's class, e.g. "crosstable"
    dom_id: str = ""  # so a page's script and the browser tests find the table
    wide: tuple[str, ...] = ()  # headers of the columns a phone leaves out (CSS class "wide")

    def wide_indexes(self) -> frozenset[int]:
        """The positions of the `wide` columns, for the template."""
        return frozenset(i for i, c in enumerate(self.columns) if c.text in self.wide)

    def column(self, header: str) -> list[str]:
        """The texts of the column headed `header`, top to bottom (for tests and scripts)."""
        index = [c.text for c in self.columns].index(header)
        return [row[index].text for row in self.rows]


def num(value: str) -> Cell:
    return Cell(value, css="num")


def headers(names: Iterable[str], numeric: Sequence[str] = ()) -> tuple[Cell, ...]:
    """Header cells; those named in `numeric` right-align over their numbers."""
    return tuple(Cell(name, css="num" if name in numeric else "") for name in names)


def mark_revoked(grid: Grid, column: str, revoked: Set[str]) -> Grid:
    """`grid` with each name in `column` that is a revoked bot's marked so (its results stay
    in every table; only the name says it plays no more)."""
    if not revoked:
        return grid
    index = [c.text for c in grid.columns].index(column)
    rows = tuple(
        (*row[:index], _revoked(row[index]), *row[index + 1 :]) if row[index].text in revoked
        else row
        for row in grid.rows
    )  # fmt: skip
    return replace(grid, rows=rows)


def _revoked(cell: Cell) -> Cell:
    css = f"{cell.css} revoked".strip()
    return Cell(f"{cell.text} (revoked)", cell.url, css, REVOKED_NOTE)


def grid_html(grid: Grid) -> Markup:
    """The table's HTML, every text and attribute escaped."""
    wide = grid.wide_indexes()
    attributes = _attribute("class", grid.css) + _attribute("id", grid.dom_id)
    head = "".join(
        f"<th{_cell_attributes(c, i in wide)}>{escape(c.text)}</th>"
        for i, c in enumerate(grid.columns)
    )
    body = "".join(
        "  <tr>"
        + "".join(
            f"<td{_cell_attributes(c, i in wide)}>{_content(c)}</td>" for i, c in enumerate(row)
        )
        + "</tr>\n"
        for row in grid.rows
    )
    caption = f"<caption>{escape(grid.caption)}</caption>" if grid.caption else ""
    return Markup(
        f"<table{attributes}>\n  <thead><tr>\n{head}  </tr></thead>\n  <tbody>\n{body}"
        f"  </tbody>\n{caption}</table>\n"
    )


def _attribute(name: str, value: str) -> str:
    return f' {name}="{escape(value)}"' if value else ""


def _cell_attributes(cell: Cell, wide: bool) -> str:
    css = (cell.css + (" wide" if wide else "")).strip()
    return _attribute("class", css) + _attribute("title", cell.title)


def _content(cell: Cell) -> str:
    text = escape(cell.text)
    return f'<a href="{escape(cell.url)}">{text}</a>' if cell.url else str(text)
