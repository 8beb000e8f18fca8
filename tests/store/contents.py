"""Everything in a Redis database as plain values, to compare two stores (DUMP payloads differ
for equal hashes and sets once Redis has reloaded them in another order)."""

from __future__ import annotations

import redis


def contents(client: redis.Redis) -> dict[bytes, tuple[str, object]]:
    return {key: (kind, _value(client, key, kind)) for key, kind in _typed_keys(client)}


def _typed_keys(client: redis.Redis) -> list[tuple[bytes, str]]:
    return [(key, _text(client.type(key))) for key in client.scan_iter()]


def _text(kind: bytes | str) -> str:
    return kind.decode() if isinstance(kind, bytes) else kind


def _value(client: redis.Redis, key: bytes, kind: str) -> object:
    if kind == "string":
        return client.get(key)
    if kind == "hash":
        return client.hgetall(key)
    if kind == "list":
        return client.lrange(key, 0, -1)
    if kind == "set":
        return client.smembers(key)
    if kind == "zset":
        return client.zrange(key, 0, -1, withscores=True)
    if kind == "stream":
        return client.xrange(key)
    return kind  # a key gone meanwhile ("none")
