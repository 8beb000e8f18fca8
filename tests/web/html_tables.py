"""Reading the site's HTML in tests: a table's cell texts by its id, and every link's href."""

from __future__ import annotations

from html.parser import HTMLParser


class _Tables(HTMLParser):
    def __init__(self, table_id: str) -> None:
        super().__init__()
        self.table_id = table_id
        self.depth = 0  # > 0 inside the wanted table
        self.rows: list[list[str]] = []
        self.cell: list[str] | None = None
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "a" and found.get("href"):
            self.links.append(str(found["href"]))
        if tag == "table" and (self.depth or found.get("id") == self.table_id):
            self.depth += 1
        elif self.depth and tag == "tr":
            self.rows.append([])
        elif self.depth and tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "table" and self.depth:
            self.depth -= 1
        elif self.depth and tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def table(html: str, table_id: str) -> list[list[str]]:
    """The rows of the table with that id (header row first), each a list of cell texts."""
    parser = _Tables(table_id)
    parser.feed(html)
    assert parser.rows, f"no table with id {table_id!r} in the page"
    return parser.rows


def column(html: str, table_id: str, header: str) -> list[str]:
    rows = table(html, table_id)
    index = rows[0].index(header)
    return [row[index] for row in rows[1:]]


def hrefs(html: str) -> list[str]:
    parser = _Tables("")
    parser.feed(html)
    return parser.links
