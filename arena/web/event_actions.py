"""What the organiser does to events from the site: create a tournament from a form; start,
stop or resume one from its page, and enter or withdraw an entrant of a Swiss there.

Every rule is the events service's (`arena.services.events`, which the CLI calls too): the site
parses the form, calls it and shows its message, on the form re-rendered with what was typed
or, after a lifecycle button, on the tournament page the 303 leads back to.
"""

from __future__ import annotations

from collections.abc import Callable

import redis
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from arena.games import GAMES
from arena.services import events
from arena.store.tournaments import TournamentStore, TournamentStoreError
from arena.store.web_sessions import ORGANISER, WebSession
from arena.tournament.definition import Format, TimeControl
from arena.web import links, signer
from arena.web.notice import set_notice
from arena.web.render import NotFound, page, store_client

FIELDS = ("name", "game", "format", "rounds", "entrants", "games_per_match", "city")
NO_STORE = {"Cache-Control": "no-store"}


def routes() -> list[Route]:
    return [
        Route(links.new_tournament_url(), new_tournament_page, methods=["GET"]),
        Route(links.new_tournament_url(), create_tournament, methods=["POST"]),
        *(
            Route(f"/tournaments/{{name}}/{action}", handler, methods=["POST"])
            for action, handler in ACTIONS.items()
        ),
    ]


def _organiser(session: WebSession | None, doing: str) -> WebSession:
    if session is None:
        raise signer.SignInNeeded
    if session.role != ORGANISER:
        raise HTTPException(403, f"only the organiser may {doing}")
    return session


async def new_tournament_page(request: Request) -> Response:
    session = _organiser(signer.current(request), "create a tournament")
    defaults = {"game": "caper", "format": Format.SWISS.value}
    return _form(request, session, {f: defaults.get(f, "") for f in FIELDS}, "")


def _form(
    request: Request, session: WebSession, values: dict[str, str], error: str, status: int = 200
) -> Response:
    context: dict[str, object] = {
        "values": values,
        "error": error,
        "games": sorted(GAMES),
        "formats": [f.value for f in Format],
        "csrf": session.csrf,
    }
    return page(request, "new_tournament.html", context, status, headers=NO_STORE)


async def create_tournament(request: Request) -> Response:
    form = await signer.read_form(request)
    session = _organiser(signer.require_signer(request, form), "create a tournament")
    values = {f: form.get(f, "").strip() for f in FIELDS}
    try:
        definition = events.create(
            store_client(request),
            values["name"],
            values["format"],
            [e.strip() for e in values["entrants"].split(",") if e.strip()],
            _whole_number(values["rounds"], "rounds"),
            values["game"],
            values["city"] or None,
            _whole_number(values["games_per_match"], "games a match"),
            True,
            TimeControl(),
            events.fresh_seed(),
        )
    except ValueError as error:  # the service's message, on the form with what was typed
        return _form(request, session, values, str(error), status=400)
    message = (
        f"Created {definition.format.value} {definition.name}: {len(definition.entrants)} "
        f"entrants, {definition.planned_rounds} rounds."
    )
    return _back_to(request, definition.name, message)


def _whole_number(text: str, field: str) -> int | None:
    """A blank field is the service's default; anything else must be a whole number."""
    if not text:
        return None
    if not text.isdigit():
        raise ValueError(f"{field} must be a whole number, not {text!r}")
    return int(text)


Act = Callable[[redis.Redis, str, signer.Form], str]


async def _act(request: Request, doing: str, act: Act) -> Response:
    """Check the signer, run the service's operation, and go back to the tournament's page
    with its message (or its refusal)."""
    form = await signer.read_form(request)
    _organiser(signer.require_signer(request, form), doing)
    client, name = store_client(request), request.path_params["name"]
    try:
        TournamentStore(client).get(name)
    except TournamentStoreError as error:
        raise NotFound(str(error)) from None
    try:
        message = act(client, name, form)
    except ValueError as error:
        return _back_to(request, name, str(error), refused=True)
    return _back_to(request, name, message)


def _back_to(request: Request, name: str, message: str, refused: bool = False) -> Response:
    response = RedirectResponse(links.tournament_url(name), status_code=303)
    set_notice(response, message, refused, signer.secure(request))
    return response


async def start(request: Request) -> Response:
    def act(client: redis.Redis, name: str, form: signer.Form) -> str:
        rounds = events.start(client, name)
        return f"Started {name}: {rounds} round(s) scheduled; workers play them."

    return await _act(request, "start a tournament", act)


async def stop(request: Request) -> Response:
    def act(client: redis.Redis, name: str, form: signer.Form) -> str:
        taken_off = events.stop(client, name)
        return f"Stopped {name}: {taken_off} queued job(s) taken off; its results stay."

    return await _act(request, "stop a tournament", act)


async def resume(request: Request) -> Response:
    def act(client: redis.Redis, name: str, form: signer.Form) -> str:
        queued = events.resume(client, name)
        return f"Resumed {name}: {queued} unplayed encounter(s) queued again."

    return await _act(request, "resume a tournament", act)


async def enter(request: Request) -> Response:
    def act(client: redis.Redis, name: str, form: signer.Form) -> str:
        entrant = form.get("entrant", "").strip()
        events.enter_late(client, name, entrant)
        return f"{entrant} entered {name}; it is paired from the next round on."

    return await _act(request, "enter a bot in a tournament", act)


async def withdraw(request: Request) -> Response:
    def act(client: redis.Redis, name: str, form: signer.Form) -> str:
        entrant = form.get("entrant", "").strip()
        events.withdraw(client, name, entrant)
        return f"{entrant} withdrew from {name}; it is not paired again."

    return await _act(request, "withdraw a bot from a tournament", act)


ACTIONS = {"start": start, "stop": stop, "resume": resume, "enter": enter, "withdraw": withdraw}
