"""Reading credentials from gRPC metadata: `authorization: Bearer <token>`."""

from __future__ import annotations

import hmac
from typing import Any

import redis.asyncio as aioredis

from arena.store import keys
from arena.store.bots import BotInfo, token_hash
from arena.store.values import as_text


def bearer_token(metadata: Any) -> str | None:
    """The token of `authorization: Bearer <token>` in gRPC metadata, if there is one."""
    for key, value in metadata or ():
        if key.lower() == "authorization":
            scheme, _, token = as_text(value).partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                return token.strip()
    return None


async def authenticate_bot(client: aioredis.Redis, token: str) -> BotInfo | None:
    """The registered bot holding `token`, or None."""
    bot_id = await client.hget(keys.bot_tokens(), token_hash(token))
    if bot_id is None:
        return None
    fields = {
        as_text(k): as_text(v) for k, v in (await client.hgetall(keys.bot(as_text(bot_id)))).items()
    }
    if not fields:
        return None
    return BotInfo(as_text(bot_id), fields["name"], float(fields["created"]))


def is_admin(token: str | None, admin_token: str | None) -> bool:
    """Constant-time check; with no admin token configured, nobody is admin."""
    if token is None or not admin_token:
        return False
    return hmac.compare_digest(token.encode(), admin_token.encode())
