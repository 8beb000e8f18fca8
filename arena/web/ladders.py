"""The ladder pages: every ladder, one ladder's standings, one bot's rating history."""

from __future__ import annotations

import redis
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from arena.services import bots
from arena.store.ladder_runs import LadderRuns
from arena.store.ladders import LadderDefinition, LadderError, LadderStore
from arena.store.ratings import RatingStore
from arena.web import ladder_views as views
from arena.web.grid import mark_revoked
from arena.web.render import NotFound, page, store_client

SHOWN = 200  # the ladder page lists the best 200 bots; the caption says how many there are


def _definition(client: redis.Redis, slug: str) -> LadderDefinition:
    try:
        return LadderStore(client).get_slug(slug)
    except (LadderError, ValueError):  # unknown, or not a slug at all ("a.b" has no version)
        raise NotFound(f"no ladder {slug!r}") from None


def ladder_list(request: Request) -> Response:
    client = store_client(request)
    ladders = [views.summary(client, d) for d in LadderStore(client).all()]
    return page(request, "ladders.html", {"ladders": ladders})


def ladder_page(request: Request) -> Response:
    client = store_client(request)
    definition = _definition(client, request.path_params["slug"])
    ratings = RatingStore(client)
    rows = ratings.leaderboard(definition, views.board(definition), SHOWN)
    revoked = bots.revoked_among(client, [name for name, _ in rows])
    context = {
        "ladder": views.summary(client, definition),
        "standings": mark_revoked(views.standings(definition, rows), "bot", revoked),
        "builtin": definition.bots,
        "in_flight": "{} of {}".format(*LadderRuns(client).load(definition.ref.slug)),
    }
    return page(request, "ladder.html", context)


def ladder_bot(request: Request) -> Response:
    client = store_client(request)
    definition = _definition(client, request.path_params["slug"])
    bot = request.path_params["bot"]
    ratings = RatingStore(client)
    try:
        entries = ratings.history(definition, bot)
    except LadderError:
        raise NotFound(f"bot {bot!r} has no rated result on ladder {definition.ref}") from None
    context = {
        "ladder": views.summary(client, definition),
        "bot": bot,
        "revoked": bool(bots.revoked_among(client, [bot])),
        "standing": ratings.standing(definition, bot),
        "chart": views.chart(definition, bot, entries),
        "history": views.history(definition, entries, bot),
        "tables": definition.tables,
    }
    return page(request, "ladder_bot.html", context)


def routes() -> list[Route]:
    return [
        Route("/ladders", ladder_list, methods=["GET"]),
        Route("/ladders/{slug}", ladder_page, methods=["GET"]),
        Route("/ladders/{slug}/bots/{bot}", ladder_bot, methods=["GET"]),
    ]
