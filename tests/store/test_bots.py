"""The bot registry against a real Redis server."""

from __future__ import annotations

import secrets

import pytest
import redis

from arena.store import keys
from arena.store.bots import BotRegistry, BotRegistryError, token_hash


def test_register_returns_a_token_and_stores_only_its_hash(redis_client: redis.Redis) -> None:
    registry = BotRegistry(redis_client)
    info, token = registry.register("alpha")
    stored = redis_client.hgetall(keys.bot(info.bot_id))
    assert stored[b"token"] == token_hash(token).encode()
    dump = b"".join(redis_client.dump(key) or b"" for key in redis_client.keys("*"))
    assert token.encode() not in dump
    assert registry.authenticate(token) == info
    assert registry.authenticate(token + "x") is None


def test_names_are_unique_and_validated(redis_client: redis.Redis) -> None:
    registry = BotRegistry(redis_client)
    registry.register("alpha")
    with pytest.raises(BotRegistryError, match="already registered"):
        registry.register("alpha")
    with pytest.raises(BotRegistryError, match="bad bot name"):
        registry.register("no spaces please")
    with pytest.raises(BotRegistryError, match="bad bot name"):
        registry.register("")


def test_list_and_lookup(redis_client: redis.Redis) -> None:
    registry = BotRegistry(redis_client)
    beta, _ = registry.register("beta")
    alpha, _ = registry.register("alpha")
    assert registry.all() == [alpha, beta]
    assert registry.by_name("beta") == beta
    assert registry.by_name("gamma") is None
    assert registry.get("nope") is None


def test_a_token_never_starts_like_a_command_line_option(
    redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = iter(["-looks-like-an-option", "-again", "fine-token"])
    monkeypatch.setattr(secrets, "token_urlsafe", lambda nbytes: next(drawn))
    _, token = BotRegistry(redis_client).register("dashing")
    assert token == "fine-token", "`--token $TOKEN` would read a leading '-' as an option"
