"""The tournament pages: the list, one tournament (live), its live JSON and its downloads.

Reads go through `arena.store` and `arena.services.events` (the exporter the CLI calls too), so
the site shows and downloads exactly what `arena tournament standings|crosstable|export` print.
"""

from __future__ import annotations

import json

import redis
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from arena.services import bots, events
from arena.services.event_games import export_games
from arena.store.encounters import encounters_of, table_encounters
from arena.store.tournaments import Status, TournamentStore, TournamentStoreError
from arena.tournament import crosstable, standings
from arena.tournament.definition import Format, TournamentDefinition
from arena.tournament.encounter import at_tables
from arena.web import tournament_views as views
from arena.web.fits import FitCache
from arena.web.grid import mark_revoked
from arena.web.render import NotFound, page, store_client

ENTRANT = "entrant"  # the standings' and crosstables' column of names
DOWNLOADS = {"trf": "text/plain", "json": "application/json", "csv": "text/csv"}


def _definition(client: redis.Redis, name: str) -> TournamentDefinition:
    try:
        return TournamentStore(client).get(name)
    except TournamentStoreError as error:
        raise NotFound(str(error)) from None


def progress(client: redis.Redis, definition: TournamentDefinition) -> views.Progress:
    """What `arena tournament status` counts: the live script polls this every few seconds
    per viewer."""
    p = events.progress(client, definition.name, definition)
    return views.Progress(p.status.value, p.done, p.scheduled, p.rounds, p.planned, p.reason)


def summaries(client: redis.Redis) -> list[views.Summary]:
    store, rows = TournamentStore(client), []
    for name in store.names():
        definition = store.get(name)
        entrants = len(store.entrants(name))
        rows.append(views.summary(definition, entrants, progress(client, definition)))
    return rows


def tournament_list(request: Request) -> Response:
    return page(request, "tournaments.html", {"tournaments": summaries(store_client(request))})


def tournament_page(request: Request) -> Response:
    client = store_client(request)
    definition = _definition(client, request.path_params["name"])
    shown = progress(client, definition)
    context: dict[str, object] = {
        "definition": definition,
        "kind": views.kind(definition),
        "facts": views.facts(definition, shown.status),
        "downloads": [f for f in ("trf", "json", "csv") if f in events.export_formats(definition)],
        "rounds": _rounds(client, definition),
    }
    if at_tables(definition):
        context |= _table_parts(client, definition)
    else:
        context |= _pair_parts(request, definition)
    context["progress"] = shown
    return page(request, "tournament.html", context)


def _pair_parts(request: Request, definition: TournamentDefinition) -> dict[str, object]:
    client = store_client(request)
    store, name = TournamentStore(client), definition.name
    results = store.results(name)
    history, entrants = store.history(name, results), store.entrants(name)
    rows = standings(
        entrants, history.results, history.byes, definition.tiebreaks, definition.bye_points
    )
    fit = fits(request).get(name, len(results), lambda: store.games(name), entrants)
    if definition.format is Format.SWISS:
        chart = views.swiss_crosstable(
            definition, rows, history.results, history.byes, len(store.rounds(name))
        )
    else:
        chart = views.pair_crosstable(
            definition, rows, crosstable(entrants, history.results), history.byes
        )
    revoked = bots.revoked_among(client, entrants)
    return {
        "standings": mark_revoked(views.pair_standings(definition, rows, fit), ENTRANT, revoked),
        "crosstable": mark_revoked(chart, ENTRANT, revoked),
    }


def fits(request: Request) -> FitCache:
    cache: FitCache = request.app.state.fits
    return cache


def _table_parts(client: redis.Redis, definition: TournamentDefinition) -> dict[str, object]:
    tables, name = table_encounters(client), definition.name
    rows = events.standings_at_tables(client, name)
    results = tables.results(name)
    ranked = [row.entrant for row in rows]
    revoked = bots.revoked_among(client, ranked)
    table = views.table_standings(rows, views.mean_cards(results.values()))
    return {
        "standings": mark_revoked(table, ENTRANT, revoked),
        "crosstable": mark_revoked(
            views.table_crosstable(ranked, results.values()), ENTRANT, revoked
        ),
    }


def _rounds(client: redis.Redis, definition: TournamentDefinition) -> list[views.RoundView]:
    store, name = encounters_of(client, definition), definition.name
    return views.event_rounds(name, store.rounds(name), store.results(name))


def live(request: Request) -> Response:
    client = store_client(request)
    definition = _definition(client, request.path_params["name"])
    return JSONResponse(progress(client, definition).to_json())


def download(request: Request) -> Response:
    """What `arena tournament export --format FMT` writes. While the tournament is not finished
    the JSON's definition leaves out the seed: it fixes the deals still to be played."""
    client = store_client(request)
    definition = _definition(client, request.path_params["name"])
    fmt = request.path_params["fmt"]
    if fmt not in DOWNLOADS:
        raise NotFound(f"no download format {fmt!r}: choose trf, json or csv")
    try:
        text = events.export(client, definition.name, fmt)
    except ValueError as error:  # TRF of a tournament of tables: the service's clear refusal
        raise NotFound(str(error)) from None
    if fmt == "json" and TournamentStore(client).status(definition.name) is not Status.FINISHED:
        data = json.loads(text)
        data["definition"].pop("seed", None)
        text = json.dumps(data, indent=2, sort_keys=True)
    filename = f"{definition.name}.{fmt}"
    return Response(
        text,
        media_type=DOWNLOADS[fmt],
        headers={"content-disposition": f'attachment; filename="{filename}"'},
    )


def games_download(request: Request) -> Response:
    """What `arena tournament export NAME --games -` writes, streamed as it is read."""
    client = store_client(request)
    name = _definition(client, request.path_params["name"]).name
    return StreamingResponse(
        export_games(client, name),
        media_type="application/gzip",
        headers={"content-disposition": f'attachment; filename="{name}.games.jsonl.gz"'},
    )


def routes() -> list[Route]:
    return [
        Route("/tournaments", tournament_list, methods=["GET"]),
        Route("/tournaments/{name}", tournament_page, methods=["GET"]),
        Route("/tournaments/{name}/live.json", live, methods=["GET"]),
        Route("/tournaments/{name}/export.{fmt}", download, methods=["GET"]),
        Route("/tournaments/{name}/games.jsonl.gz", games_download, methods=["GET"]),
    ]
