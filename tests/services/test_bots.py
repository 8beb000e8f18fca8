"""The bots service: a registered bot is listed with its connection, and a match with a bot
that is not connected is refused before it starts."""

from __future__ import annotations

import pytest
import redis

from arena.games import base_config, get_game
from arena.services import bots
from arena.store import keys
from arena.store.bots import BotRegistry, BotRegistryError


def test_a_registered_bot_is_listed_offline_and_refused_for_a_match(
    redis_client: redis.Redis,
) -> None:
    info, token = bots.register(redis_client, "lynx")
    assert token and [(b.info, b.online) for b in bots.listing(redis_client)] == [(info, False)]
    with pytest.raises(BotRegistryError, match="bot lynx is not connected"):
        bots.check_players(
            redis_client, get_game("caper"), base_config("caper", "paris"), ("lynx", "random"), 1
        )


def test_only_revoked_registered_bots_are_revoked_among_names(redis_client: redis.Redis) -> None:
    for name in ("lynx", "owl"):
        bots.register(redis_client, name)
    bots.revoke(redis_client, "owl")
    names = ["random", "lynx", "owl", "ghost", "owl"]
    assert bots.revoked_among(redis_client, names) == frozenset({"owl"})
    assert bots.revoked_among(redis_client, []) == frozenset()


def test_counts_are_the_registered_bots_and_those_connected_now(
    redis_client: redis.Redis,
) -> None:
    assert bots.counts(redis_client) == (0, 0)
    for name in ("lynx", "owl", "wren"):
        bots.register(redis_client, name)
    lynx = BotRegistry(redis_client).by_name("lynx")
    assert lynx is not None
    redis_client.set(keys.bot_online(lynx.bot_id), "session", ex=30)  # as a gateway marks it
    bots.revoke(redis_client, "owl")  # still registered: its name and results stay
    assert bots.counts(redis_client) == (3, 1)
