"""`arena tournament create --rated LADDER`: refused (one line) for a ladder the event cannot be
rated in; else `create`, `status` and `export` say which ladder it rates into."""

from __future__ import annotations

import json

import redis

from arena.store.ladders import LadderDefinition, LadderStore, ladder_ref
from tests.cli.refusals import arena, refused

CREATE = ("tournament", "create", "cup", "--format", "round-robin", "--entrants", "random,greedy")


def test_create_rates_in_a_ladder_of_its_game_and_says_so(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    refused(redis_server_url, "unknown ladder main; known ladders: none yet",
            *CREATE, "--rated", "main")  # fmt: skip
    ladder = LadderDefinition(ladder_ref("main"))
    LadderStore(redis_client).create(ladder)
    refused(redis_server_url, "rates games with players 2, but this event's have 4",
            *CREATE, "--players", "4", "--rated", "main")  # fmt: skip
    created = arena(redis_server_url, *CREATE, "--rated", "main")
    assert f"Rated in ladder {ladder.ref.slug}." in created.output, created.output
    status = arena(redis_server_url, "tournament", "status", "cup").output
    assert f"rated in ladder {ladder.ref.slug}" in status
    exported = json.loads(arena(redis_server_url, "tournament", "export", "cup").output)
    assert exported["definition"]["rating_ladder"] == ladder.ref.slug
    assert exported["definition"]["rated"] is True
