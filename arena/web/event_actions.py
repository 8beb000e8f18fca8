"""What the organiser does to events from the site: create a tournament from a form; start,
stop or resume one from its page, and enter or withdraw an entrant of a Swiss there.

Every rule is the events service's (`arena.services.events`, which the CLI calls too): the site
parses the form, calls it and shows its message, on the form re-rendered with what was typed
or, after a lifecycle button, on the tournament page the 303 leads back to.
"""

from __future__ import annotations

from collections.abc import Callable

import redis
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from arena.games import GAMES
from arena.services import event_ratings, events
from arena.store.tournaments import TournamentStore, TournamentStoreError
from arena.store.web_sessions import WebSession
from arena.tournament import Tiebreak
from arena.tournament.definition import Format, TimeControl
from arena.tournament.swiss import SwissSystem
from arena.web import links, organiser, signer
from arena.web.render import NotFound, page, store_client

# Every option of `arena tournament create`, by its field name.
FIELDS = (
    "name", "game", "format", "players", "rounds", "entrants", "games_per_match", "city",
    "duplicate", "time_control", "seed", "tiebreaks", "absent_bye_points", "swiss_system", "rated",
)  # fmt: skip
DEFAULTS = {
    "game": "caper",
    "format": Format.SWISS.value,
    "players": "2",
    "duplicate": organiser.CHECKED,
    "time_control": events.time_control_text(TimeControl()),
    "absent_bye_points": "0",
    "swiss_system": SwissSystem.ARENA.value,
}
PLAYERS = (("2", "2"), ("3", "3: the Snitch game, at tables"), ("4", "4: the team game"))
BYE_POINTS = ("0", "0.5", "1")


def routes() -> list[Route]:
    return [
        Route(links.new_tournament_url(), new_tournament_page, methods=["GET"]),
        Route(links.new_tournament_url(), create_tournament, methods=["POST"]),
        *(
            Route(f"/tournaments/{{name}}/{action}", handler, methods=["POST"])
            for action, handler in ACTIONS.items()
        ),
    ]


async def new_tournament_page(request: Request) -> Response:
    session = organiser.require(signer.current(request), "create a tournament")
    return _form(request, session, {f: DEFAULTS.get(f, "") for f in FIELDS}, "")


def _form(
    request: Request, session: WebSession, values: dict[str, str], error: str, status: int = 200
) -> Response:
    context: dict[str, object] = {
        "values": values,
        "error": error,
        "games": sorted(GAMES),
        "formats": [f.value for f in Format],
        "players": PLAYERS,
        "bye_points": BYE_POINTS,
        "swiss_systems": [s.value for s in SwissSystem],
        "tiebreaks": ", ".join(t.value for t in Tiebreak),
        "ladders": event_ratings.ladder_options(store_client(request)),
        "csrf": session.csrf,
    }
    return page(request, "new_tournament.html", context, status, headers=organiser.NO_STORE)


async def create_tournament(request: Request) -> Response:
    session, form = await organiser.signed_form(request, "create a tournament")
    values = {f: form.get(f, "").strip() for f in FIELDS}
    try:
        definition = events.create(
            store_client(request),
            values["name"],
            values["format"],
            _names(values["entrants"]),
            organiser.whole_number(values["rounds"], "rounds"),
            values["game"],
            values["city"] or None,
            organiser.whole_number(values["games_per_match"], "games a match"),
            values["duplicate"] == organiser.CHECKED,
            events.parse_time_control(values["time_control"] or DEFAULTS["time_control"]),
            organiser.seed(values["seed"]),
            _names(values["tiebreaks"]),
            organiser.number(values["absent_bye_points"] or "0", "absent bye points"),
            values["swiss_system"] or SwissSystem.ARENA.value,
            organiser.whole_number(values["players"], "players") or 2,
            values["rated"] or None,
        )
    except ValueError as error:  # the service's message, on the form with what was typed
        return _form(request, session, values, str(error), status=400)
    message = (
        f"Created {definition.format.value} {definition.name}: {len(definition.entrants)} "
        f"entrants, {definition.planned_rounds} rounds."
    )
    return organiser.back_to(request, links.tournament_url(definition.name), message)


def _names(text: str) -> list[str]:
    """A comma-separated field, in order, blanks left out (as the CLI splits its options)."""
    return [part.strip() for part in text.split(",") if part.strip()]


Act = Callable[[redis.Redis, str, signer.Form], str]


async def _act(request: Request, doing: str, act: Act) -> Response:
    """Check the signer, run the service's operation, and go back to the tournament's page
    with its message (or its refusal)."""
    _, form = await organiser.signed_form(request, doing)
    client, name = store_client(request), request.path_params["name"]
    try:
        TournamentStore(client).get(name)
    except TournamentStoreError as error:
        raise NotFound(str(error)) from None
    try:
        message = act(client, name, form)
    except ValueError as error:
        return organiser.back_to(request, links.tournament_url(name), str(error), refused=True)
    return organiser.back_to(request, links.tournament_url(name), message)


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
