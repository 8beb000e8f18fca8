"""What the organiser does to ladders from the site: create one from a form with every option of
`arena ladder create`, and, from its page, choose its built-in bots, start, stop or resume it.

Every rule is the ladders service's (`arena.services.ladders`, which the CLI calls too): the
site parses the form as the CLI parses its options, calls it and shows its message. A started
ladder is kept playing by the worker pool (`arena worker`): no process of its own is needed.
"""

from __future__ import annotations

from collections.abc import Callable

import redis
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from arena.games import GAMES
from arena.ratings.ladder import LadderParams
from arena.services import events, ladders
from arena.store.ladders import DEFAULT_BOTS, LadderDefinition, LadderStore
from arena.store.web_sessions import WebSession
from arena.tournament.definition import TimeControl
from arena.web import links, organiser, signer
from arena.web.render import NotFound, page, store_client

DOING = "create a ladder"
# Every option of `arena ladder create`, by its field name ("remote" is --no-remote unticked).
FIELDS = (
    "name", "game", "k", "tau", "provisional_rd", "bots", "remote", "city", "players",
    "games_per_match", "time_control", "seed",
)  # fmt: skip
PLAYERS = (
    ("2", "2"),
    ("3", "3: tables of the Snitch game, rated by Weng-Lin only"),
    ("4", "4: teams (a bot plays both seats of its team)"),
)


def routes() -> list[Route]:
    return [
        Route(links.new_ladder_url(), new_ladder_page, methods=["GET"]),
        Route(links.new_ladder_url(), create_ladder, methods=["POST"]),
        *(
            Route(f"/ladders/{{slug}}/{action}", handler, methods=["POST"])
            for action, handler in ACTIONS.items()
        ),
    ]


def defaults() -> dict[str, str]:
    """The form's first values: the ladder's defaults, which are the CLI's."""
    params = LadderParams()
    shown = {
        "game": "caper",
        "k": f"{params.k:g}",
        "tau": f"{params.glicko.tau:g}",
        "provisional_rd": f"{params.provisional_rd:g}",
        "bots": ",".join(DEFAULT_BOTS),
        "remote": organiser.CHECKED,
        "players": "2",
        "time_control": events.time_control_text(TimeControl()),
    }
    return {f: shown.get(f, "") for f in FIELDS}


async def new_ladder_page(request: Request) -> Response:
    session = organiser.require(signer.current(request), DOING)
    return _form(request, session, defaults(), "")


def _form(
    request: Request, session: WebSession, values: dict[str, str], error: str, status: int = 200
) -> Response:
    context: dict[str, object] = {
        "values": values,
        "error": error,
        "games": sorted(GAMES),
        "players": PLAYERS,
        "csrf": session.csrf,
    }
    return page(request, "new_ladder.html", context, status, headers=organiser.NO_STORE)


async def create_ladder(request: Request) -> Response:
    session, form = await organiser.signed_form(request, DOING)
    values = {f: form.get(f, "").strip() for f in FIELDS}
    try:
        definition = _create(store_client(request), values)
    except ValueError as error:  # the service's message, on the form with what was typed
        return _form(request, session, values, str(error), status=400)
    url = links.ladder_url(definition.ref.slug)
    return organiser.back_to(request, url, f"{ladders.created(definition)}.")


def _create(client: redis.Redis, values: dict[str, str]) -> LadderDefinition:
    number, blank_default = organiser.number, defaults()
    return ladders.create(
        client,
        values["name"],
        values["game"] or blank_default["game"],
        ladders.params(
            number(values["k"] or blank_default["k"], "k"),
            number(values["tau"] or blank_default["tau"], "tau"),
            number(values["provisional_rd"] or blank_default["provisional_rd"], "provisional RD"),
        ),
        ladders.bot_list(values["bots"]),
        values["remote"] == organiser.CHECKED,
        values["city"] or None,
        organiser.whole_number(values["players"], "players") or 2,
        organiser.whole_number(values["games_per_match"], "games per match"),
        events.parse_time_control(values["time_control"] or blank_default["time_control"]),
        organiser.seed(values["seed"]),
    )


Act = Callable[[redis.Redis, LadderDefinition, signer.Form], str]


async def _act(request: Request, doing: str, act: Act) -> Response:
    """Check the signer, run the service's operation, and go back to the ladder's page with
    its message (or its refusal)."""
    _, form = await organiser.signed_form(request, doing)
    client, slug = store_client(request), request.path_params["slug"]
    try:
        definition = LadderStore(client).get_slug(slug)
    except ValueError:  # unknown, or not a slug at all
        raise NotFound(f"no ladder {slug!r}") from None
    url = links.ladder_url(definition.ref.slug)
    try:
        message = act(client, definition, form)
    except ValueError as error:
        return organiser.back_to(request, url, str(error), refused=True)
    return organiser.back_to(request, url, message)


async def set_bots(request: Request) -> Response:
    def act(client: redis.Redis, definition: LadderDefinition, form: signer.Form) -> str:
        chosen = ladders.bot_list(form.get("bots", ""))
        return ladders.plays(ladders.set_bots(client, definition.ref, chosen))

    return await _act(request, "choose a ladder's bots", act)


async def start(request: Request) -> Response:
    def act(client: redis.Redis, definition: LadderDefinition, form: signer.Form) -> str:
        return f"{ladders.started(definition.ref, ladders.start(client, definition.ref))}."

    return await _act(request, "start a ladder", act)


async def stop(request: Request) -> Response:
    def act(client: redis.Redis, definition: LadderDefinition, form: signer.Form) -> str:
        ladders.stop(client, definition.ref)
        return f"{ladders.stopped(definition.ref)}."

    return await _act(request, "stop a ladder", act)


async def resume(request: Request) -> Response:
    def act(client: redis.Redis, definition: LadderDefinition, form: signer.Form) -> str:
        return ladders.resumed(definition.ref, ladders.resume(client, definition.ref))

    return await _act(request, "resume a ladder", act)


ACTIONS = {"bots": set_bots, "start": start, "stop": stop, "resume": resume}
