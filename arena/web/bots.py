"""The bots page: every registered bot, connected or not, with its recent matches."""

from __future__ import annotations

import redis
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from arena.store.bots import BotRegistry
from arena.store.ladders import LadderStore
from arena.store.ratings import RatedResult, RatingStore
from arena.store.table_rounds import TableStore
from arena.store.tournaments import TournamentStore
from arena.web import bot_views as views
from arena.web import links
from arena.web.render import page, store_client


def played_matches(client: redis.Redis) -> list[views.PlayedMatch]:
    """Every recorded tournament match and table, and every rated ladder result."""
    return [*_tournament_matches(client), *_ladder_matches(client)]


def _tournament_matches(client: redis.Redis) -> list[views.PlayedMatch]:
    store, tables, found = TournamentStore(client), TableStore(client), []
    # Tournaments carry no clock in their results: a later round counts as more recent, and
    # ladder results (which do) sort by time among themselves.
    for name in store.names():
        url = links.tournament_url(name)
        if store.get(name).table_size:
            for t in tables.results(name).values():
                order = (0.0, t.round)
                found.append(
                    views.PlayedMatch(
                        name, url, f"round {t.round}", t.entrants, t.points, t.game_ids, order
                    )
                )
            continue
        for m in store.results(name).values():
            r = m.result
            found.append(
                views.PlayedMatch(
                    name, url, f"round {r.round}", (r.seat0, r.seat1),
                    (r.game_points0, r.game_points1), m.game_ids, (0.0, r.round),
                )
            )  # fmt: skip
    return found


def _ladder_matches(client: redis.Redis) -> list[views.PlayedMatch]:
    ratings, found = RatingStore(client), []
    for definition in LadderStore(client).all():
        slug = definition.ref.slug
        for number, result in enumerate(ratings.results(definition), start=1):
            if isinstance(result, RatedResult):
                scores: tuple[float, ...] = (result.score_a, 1 - result.score_a)
            else:
                scores = tuple(score for _, score in result.sides)
            games = tuple(f"{result.result_id}.g{i}" for i in range(result.games))
            found.append(
                views.PlayedMatch(
                    str(definition.ref), links.ladder_url(slug), f"match {number}",
                    result.players, scores, games, (result.at, number),
                )
            )  # fmt: skip
    return found


def bot_list(request: Request) -> Response:
    client = store_client(request)
    registry = BotRegistry(client)
    bots = registry.all()
    rows = views.rows(
        bots,
        {b.bot_id: registry.is_online(b.bot_id) for b in bots},
        {b.bot_id: registry.version(b.bot_id) for b in bots},
        {b.bot_id: registry.declared_games(b.bot_id) for b in bots},
        played_matches(client),
    )
    return page(request, "bots.html", {"bots": rows})


def routes() -> list[Route]:
    return [Route("/bots", bot_list, methods=["GET"])]
