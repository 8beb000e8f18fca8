"""The bots page: every registered bot, connected or not, with its recent matches.

Each bot's recent matches come from its own short list of tournament matches and the last few
entries of its history on each ladder (`arena.store.recent`), one pipeline: a view reads a few
entries per bot and ladder, however many matches were played. A store holding tournament
results from before those lists existed gets them filled once, by the first view
(`arena.store.recent_backfill`). A ladder of tables shows the bot's share and place: its
history holds no other side's score.
"""

from __future__ import annotations

import redis
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from arena.services import bots as bot_service
from arena.store import recent
from arena.store.bot_versions import BotVersions
from arena.store.bots import BotRegistry
from arena.store.ladders import slug_ref
from arena.store.recent_backfill import backfill
from arena.web import bot_views as views
from arena.web import links
from arena.web.render import page, store_client


def played_matches(client: redis.Redis, names: list[str]) -> dict[str, list[views.PlayedMatch]]:
    """Each bot's latest matches, newest first."""
    if not recent.is_ready(client):
        backfill(client)
    lists = recent.read(client, names, views.RECENT)
    return {name: [_played(entry) for entry in entries] for name, entries in lists.items()}


def _played(entry: recent.RecentEntry) -> views.PlayedMatch:
    if entry.kind == recent.LADDER:
        where, url = str(slug_ref(entry.where)), links.ladder_url(entry.where)
    else:
        where, url = entry.where, links.tournament_url(entry.where)
    return views.PlayedMatch(
        where, url, entry.label, entry.sides, entry.scores, entry.game, entry.place
    )


def bot_list(request: Request) -> Response:
    client = store_client(request)
    listed = bot_service.listing(client)
    bots = [entry.info for entry in listed]
    hellos = BotRegistry(client).hellos([b.bot_id for b in bots])
    rows = views.rows(
        bots,
        {entry.info.bot_id: entry.online for entry in listed},
        {bot_id: version for bot_id, (version, _) in hellos.items()},
        {bot_id: games for bot_id, (_, games) in hellos.items()},
        played_matches(client, [b.name for b in bots]),
        BotVersions(client).newest_of([b.bot_id for b in bots]),
    )
    return page(request, "bots.html", {"bots": rows})


def routes() -> list[Route]:
    return [Route("/bots", bot_list, methods=["GET"])]
