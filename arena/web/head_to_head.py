"""The head-to-head page: two bots' matches against each other, in events and on ladders, with
the first's score and the Elo difference (`arena.services.head_to_head` finds and counts them;
this module only lays them out). Without two names it shows the form that asks for them."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from arena.services.head_to_head import LADDER, HeadToHead, Meeting, elo_text, head_to_head
from arena.store.ladders import slug_ref
from arena.tournament.points_text import points_text
from arena.web import links
from arena.web.grid import Cell, Grid, headers, num
from arena.web.render import page, store_client

COLUMNS = ("where", "match", "score", "games", "game")


def meeting_grid(found: HeadToHead) -> Grid:
    rows = tuple(_row(m) for m in found.meetings)
    caption = (
        f"scores from {found.first}'s side; a point is a game, or with duplicate deals a deal "
        "(its two games, seats swapped)"
    )
    return Grid(headers(COLUMNS, ("score", "games")), rows, caption, dom_id="meetings")


def _row(m: Meeting) -> tuple[Cell, ...]:
    if m.kind == LADDER:
        where = Cell(f"ladder {slug_ref(m.where)}", links.ladder_url(m.where))
    else:
        where = Cell(m.where, links.tournament_url(m.where))
    score = f"{points_text(m.points)} - {points_text(m.against)}"
    return (
        where,
        Cell(m.label),
        Cell("forfeit", css="forfeit") if m.forfeit else num(score),
        num(str(m.games)),
        Cell("replay", links.game_url(m.game_id)) if m.game_id else Cell(""),
    )


def summary(found: HeadToHead) -> dict[str, str]:
    played = len(found.played)
    return {
        "matches": f"{played} played" + (f", {len(found.meetings) - played} forfeited"
                                         if played < len(found.meetings) else ""),
        "score": f"{points_text(found.points)} of {points_text(found.at_stake)} points",
        "games": str(found.games),
        "elo": elo_text(found),
    }  # fmt: skip


def head_to_head_page(request: Request) -> Response:
    first = request.query_params.get("a", "")
    second = request.query_params.get("b", "")
    context: dict[str, object] = {"first": first, "second": second}
    if first or second:
        try:
            found = head_to_head(store_client(request), first, second)
        except ValueError as error:
            return page(request, "head_to_head.html", {**context, "error": str(error)}, 400)
        context |= {"found": found, "facts": summary(found), "meetings": meeting_grid(found)}
    return page(request, "head_to_head.html", context)


def routes() -> list[Route]:
    return [Route(links.head_to_head_url(), head_to_head_page, methods=["GET"])]
