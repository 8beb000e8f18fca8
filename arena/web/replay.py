"""The game page: `/games/{game_id}`, its frames (`/games/{game_id}/frames.json?seat=N|all`), its
stored record as a download (`record.json`) and the engine's text view of a step
(`text?step=N&seat=N|all`).

The page is rendered on the server with the game's facts (players, result, move count); its
script (static/replay.js) fetches the frames of the chosen seat and draws them. A game that may
still share its deal with a game in play (`arena.services.game_access`) gets a page with public
facts only, and no frames, record or text: neither its seed nor any card it dealt reaches a browser.
"""

from __future__ import annotations

import functools
import gzip
import json
from typing import Any

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from arena.games import get_game
from arena.games.api import GameError
from arena.games.record import GameRecord, RecordError, outcome_text
from arena.services.game_access import GameAccess, GameNotFound, Status, look_up
from arena.web import links
from arena.web.aot_svg import city_of, legend
from arena.web.render import NotFound, page, store_client
from arena.web.replay_cards import board_legend, card_table
from arena.web.replay_frames import (
    ViewerError,
    build_replay,
    parse_viewer,
    seat_count,
    text_at,
)

CACHED_REPLAYS = 256  # a finished record never changes: its frames are built once per viewer


def routes() -> list[BaseRoute]:
    return [
        Route("/games/{game_id}", game_page, methods=["GET"]),
        Route("/games/{game_id}/frames.json", frames_json, methods=["GET"]),
        Route("/games/{game_id}/record.json", record_json, methods=["GET"]),
        Route("/games/{game_id}/text", text_view, methods=["GET"]),
    ]


def game_page(request: Request) -> HTMLResponse:
    """Sync on purpose: Starlette runs it in its thread pool, beside the blocking Redis reads."""
    access = _access(request)
    context: dict[str, Any] = {"access": access, "game_id": access.game_id}
    context["owner_url"] = _owner_url(access)
    context["number"] = links.game_number(access.game_id)
    context["match_games"] = [
        (g, links.game_url(g), links.game_number(g)) for g in access.match_games
    ]
    if access.record is not None:
        context |= _facts(access.record)
        context["frames_url"] = f"{links.game_url(access.game_id)}/frames.json"
        context["record_url"] = f"{links.game_url(access.game_id)}/record.json"
        context["text_url"] = f"{links.game_url(access.game_id)}/text"
        city = city_of(access.record.game, access.record.config)
        context["city_svg"] = Markup(city) if city else ""  # built and escaped by aot_svg
        context["city_legend"] = Markup(legend()) if city else ""
    return page(request, "game.html", context)


def frames_json(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    try:
        access = look_up(store_client(request), game_id)
    except GameNotFound as error:
        return JSONResponse({"error": str(error)}, status_code=404)
    if access.status is Status.IN_PLAY or access.record is None:
        return JSONResponse({"error": f"game {game_id!r} is in play", "status": "in play"}, 404)
    record = access.record
    try:
        viewer = parse_viewer(request.query_params.get("seat"), seat_count(record))
        packed = _frames_packed(record.dumps(), viewer)
    except ViewerError as error:
        return JSONResponse({"error": str(error)}, status_code=400)
    except RecordError as error:
        return JSONResponse({"error": f"the record does not replay: {error}"}, status_code=500)
    headers = {"Vary": "Accept-Encoding"}
    if "gzip" in request.headers.get("accept-encoding", ""):
        headers["Content-Encoding"] = "gzip"
        return Response(packed, media_type="application/json", headers=headers)
    return Response(gzip.decompress(packed), media_type="application/json", headers=headers)


def record_json(request: Request) -> Response:
    """The stored record as a download, under the page's rule: none while the game is hidden."""
    shown = _shown_record(request)
    if isinstance(shown, Response):
        return shown
    name = f"{request.path_params['game_id']}.json"
    disposition = {"Content-Disposition": f'attachment; filename="{name}"'}
    return Response(shown.dumps(), media_type="application/json", headers=disposition)


def text_view(request: Request) -> Response:
    """The engine's text rendering of one step (`?step=N&seat=N|all`), as plain text."""
    shown = _shown_record(request)
    if isinstance(shown, Response):
        return shown
    step = request.query_params.get("step", "0")
    try:
        viewer = parse_viewer(request.query_params.get("seat"), seat_count(shown))
        if not step.isdigit():
            raise ViewerError(f"step must be a number, not {step!r}")
        return PlainTextResponse(text_at(shown, viewer, int(step)) + "\n")
    except ViewerError as error:
        return PlainTextResponse(f"{error}\n", status_code=400)
    except RecordError as error:
        return PlainTextResponse(f"the record does not replay: {error}\n", status_code=500)


def _shown_record(request: Request) -> GameRecord | Response:
    """The record the game page would show in full, or the 404 that says why there is none."""
    game_id = request.path_params["game_id"]
    try:
        access = look_up(store_client(request), game_id)
    except GameNotFound as error:
        return PlainTextResponse(f"{error}\n", status_code=404)
    if access.record is None:
        return PlainTextResponse(f"game {game_id!r} is in play\n", status_code=404)
    return access.record


@functools.lru_cache(maxsize=CACHED_REPLAYS)
def _frames_packed(record_json: str, viewer: int | None) -> bytes:
    """The frames as gzipped JSON, with the card faces the page draws them with. Consecutive
    frames repeat most of the board, so they compress well and the cache stays small."""
    record = GameRecord.loads(record_json)
    replay = build_replay(record, viewer).to_json()
    replay["cards"] = card_table(record.game, record.config)
    replay["board"] = board_legend(record.game)
    plain = json.dumps(replay, ensure_ascii=False, separators=(",", ":")).encode()
    return gzip.compress(plain, compresslevel=6, mtime=0)


def _access(request: Request) -> GameAccess:
    try:
        return look_up(store_client(request), request.path_params["game_id"])
    except GameNotFound as error:
        raise NotFound(str(error)) from None


def _owner_url(access: GameAccess) -> str:
    if access.owner == "tournament":
        return links.tournament_url(access.owner_name)
    if access.owner == "ladder":
        return links.ladder_url(access.owner_name)
    return ""


def _facts(record: GameRecord) -> dict[str, Any]:
    """What the page header shows of a finished game: the stored result, not a replay's."""
    try:
        name = get_game(record.game).name
        seats = seat_count(record)
    except (GameError, RecordError):
        name, seats = record.game, len(record.players)
    result = dict(record.result or {})
    scores = list(result.get("scores") or [])
    players = list(record.players) or [f"seat {seat}" for seat in range(seats)]
    return {
        "game_name": name,
        "city": record.config.get("city", ""),
        "players": players,
        "seats": list(range(seats)),
        "scores": scores,
        "outcome": outcome_text(result, players) if scores else "",
        "termination": record.termination,
        "moves": len(record.actions),
    }
