"""The SPRT pages: every A/B test, and one test's LLR, bounds, pentanomial counts and Elo
estimate, as `arena sprt status` shows them (`arena.cli.sprt.describe` for the terminal). While
a test runs its page polls `live.json` and swaps in new figures and charts (static/live.js, as
the tournament pages do); the organiser's forms are in `arena.web.sprt_actions`.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from arena.store.sprt import SprtStatus, SprtStore, UnknownSprtError
from arena.tournament.lifecycle import State
from arena.web.links import sprt_url, sprts_url
from arena.web.render import NotFound, page, store_client
from arena.web.sprt_chart import elo_svg, llr_svg

CELLS = ("LL", "LD+DL", "WL+DD+LW", "WD+DW", "WW")  # fishtest's pentanomial order


@dataclass(frozen=True, slots=True)
class SprtView:
    name: str
    url: str
    test: str
    base: str
    game: str
    state: str
    lifecycle: str  # created, running, finished or stopped: the badge's colour
    reason: str
    model: str
    hypotheses: str
    llr: str
    bounds: str
    pairs: str
    cells: list[tuple[str, int]]
    elo: str

    @property
    def live(self) -> bool:
        """The page keeps polling while this holds."""
        return self.lifecycle == State.RUNNING.value

    def to_json(self) -> dict[str, object]:
        """What the page's script polls: a change of pairs or state fetches the page again."""
        return {
            "status": self.lifecycle,
            "label": self.state,
            "done": self.pairs,
            "llr": self.llr,
            "live": self.live,
        }


def view(status: SprtStatus) -> SprtView:
    d = status.definition
    lower, upper = d.bounds
    where = ", ".join(f"{k} {v}" for k, v in d.config.items())
    return SprtView(
        d.name,
        sprt_url(d.name),
        d.test,
        d.base,
        f"{d.game} ({where})" if where else d.game,
        status.state.value,
        status.event_state.value,
        status.reason,
        d.model,
        f"H0 {d.elo0:g}, H1 {d.elo1:g}; alpha {d.alpha:g}, beta {d.beta:g}",
        f"{status.llr:.3f}",
        f"{lower:.3f}, {upper:.3f}",
        f"{status.pairs}" + (f" of at most {d.max_pairs}" if d.max_pairs is not None else ""),
        list(zip(CELLS, status.counts, strict=True)),
        status.elo_text(),
    )


def sprt_list(request: Request) -> Response:
    tests = [view(status) for status in SprtStore(store_client(request)).all()]
    return page(request, "sprt.html", {"tests": tests, "test": None})


def _status(request: Request) -> SprtStatus:
    name = request.path_params["name"]
    try:
        return SprtStore(store_client(request)).status(name)
    except UnknownSprtError:
        raise NotFound(f"no SPRT test {name!r}") from None


def sprt_page(request: Request) -> Response:
    status = _status(request)
    history = SprtStore(store_client(request)).history(status.definition.name)
    charts = {
        "llr_chart": llr_svg(history, status.definition.bounds),
        "elo_chart": elo_svg(history),
    }
    return page(request, "sprt.html", {"tests": [], "test": view(status)} | charts)


def live(request: Request) -> Response:
    return JSONResponse(view(_status(request)).to_json(), headers={"Cache-Control": "no-store"})


def routes() -> list[Route]:
    return [
        Route(sprts_url(), sprt_list, methods=["GET"]),
        Route("/sprt/{name}", sprt_page, methods=["GET"]),
        Route("/sprt/{name}/live.json", live, methods=["GET"]),
    ]
