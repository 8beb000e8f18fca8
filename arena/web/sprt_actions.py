"""What the organiser does to SPRT tests from the site: start one from a form with every option
of `arena sprt start`, and stop or resume one from its page.

Every rule is the SPRT service's (`arena.services.sprt`, which the CLI calls too): the site
parses the form as the CLI parses its options, calls it and shows its message.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import redis
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from arena.games import GAMES
from arena.services import sprt
from arena.store.sprt import SprtDefinition, SprtStore, UnknownSprtError
from arena.store.web_sessions import WebSession
from arena.web import links, organiser, signer
from arena.web.render import NotFound, page, store_client

DOING = "start an SPRT test"
# Every option of `arena sprt start`, by its field name.
FIELDS = (
    "name", "test", "base", "game", "city", "elo0", "elo1", "alpha", "beta", "max_pairs",
    "batch_pairs", "parallel", "logistic", "seed",
)  # fmt: skip
SHOWN_DEFAULTS = ("game", "elo0", "elo1", "alpha", "beta", "batch_pairs", "parallel")


def routes() -> list[Route]:
    return [
        Route(links.new_sprt_url(), new_sprt_page, methods=["GET"]),
        Route(links.new_sprt_url(), start_sprt, methods=["POST"]),
        *(
            Route(f"/sprt/{{name}}/{action}", handler, methods=["POST"])
            for action, handler in ACTIONS.items()
        ),
    ]


def defaults() -> dict[str, str]:
    """The form's first values: the definition's defaults, which are the CLI's."""
    found = {f.name: f.default for f in dataclasses.fields(SprtDefinition)}
    shown = {name: _text(found[name]) for name in SHOWN_DEFAULTS}
    return {f: shown.get(f, "") for f in FIELDS}


def _text(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


async def new_sprt_page(request: Request) -> Response:
    session = organiser.require(signer.current(request), DOING)
    return _form(request, session, defaults(), "")


def _form(
    request: Request, session: WebSession, values: dict[str, str], error: str, status: int = 200
) -> Response:
    context: dict[str, object] = {
        "values": values,
        "error": error,
        "games": sorted(GAMES),
        "csrf": session.csrf,
    }
    return page(request, "new_sprt.html", context, status, headers=organiser.NO_STORE)


async def start_sprt(request: Request) -> Response:
    session, form = await organiser.signed_form(request, DOING)
    values = {f: form.get(f, "").strip() for f in FIELDS}
    try:
        definition = _definition(values)
        queued = sprt.start(store_client(request), definition)
    except ValueError as error:  # the service's message, on the form with what was typed
        return _form(request, session, values, str(error), status=400)
    message = sprt.started(definition, queued)
    return organiser.back_to(request, links.sprt_url(definition.name), message)


def _definition(values: dict[str, str]) -> SprtDefinition:
    number, whole = organiser.number, organiser.whole_number
    return sprt.define(
        values["name"],
        values["test"],
        values["base"],
        values["game"] or "caper",
        values["city"] or None,
        (number(values["elo0"], "elo0"), number(values["elo1"], "elo1")),
        (number(values["alpha"], "alpha"), number(values["beta"], "beta")),
        whole(values["max_pairs"], "max pairs"),
        _counted(values["batch_pairs"], "batch_pairs"),
        _counted(values["parallel"], "parallel"),
        values["logistic"] == organiser.CHECKED,
        organiser.seed(values["seed"]),
    )


def _counted(text: str, field: str) -> int:
    """A whole number that has a default, which a blank field takes."""
    found = organiser.whole_number(text, field.replace("_", " "))
    return int(defaults()[field]) if found is None else found


Act = Callable[[redis.Redis, str], str]


async def _act(request: Request, doing: str, act: Act) -> Response:
    """Check the signer, run the service's operation, and go back to the test's page with its
    message (or its refusal)."""
    await organiser.signed_form(request, doing)
    client, name = store_client(request), request.path_params["name"]
    try:
        SprtStore(client).status(name)
    except UnknownSprtError:
        raise NotFound(f"no SPRT test {name!r}") from None
    try:
        message = act(client, name)
    except ValueError as error:
        return organiser.back_to(request, links.sprt_url(name), str(error), refused=True)
    return organiser.back_to(request, links.sprt_url(name), message)


async def stop(request: Request) -> Response:
    def act(client: redis.Redis, name: str) -> str:
        return sprt.stopped(name, sprt.stop(client, name))

    return await _act(request, "stop an SPRT test", act)


async def resume(request: Request) -> Response:
    def act(client: redis.Redis, name: str) -> str:
        return sprt.resumed(name, sprt.resume(client, name))

    return await _act(request, "resume an SPRT test", act)


ACTIONS = {"stop": stop, "resume": resume}
