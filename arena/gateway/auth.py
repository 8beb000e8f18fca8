"""Reading credentials from gRPC metadata: `authorization: Bearer <token>`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import grpc
import redis.asyncio as aioredis

from arena.gateway.hub import REDIS_DOWN, UNREACHABLE
from arena.store import keys
from arena.store.bots import BotInfo, is_admin, token_hash
from arena.store.values import as_text

__all__ = ["authenticate_bot", "bearer_token", "holds_token", "is_admin"]


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


async def holds_token(client: aioredis.Redis, token: str | None, admin_token: str | None) -> bool:
    """Whether `token` is the admin token or a registered bot's."""
    if token is None:
        return False
    return is_admin(token, admin_token) or await authenticate_bot(client, token) is not None


if TYPE_CHECKING:  # grpc's classes are generic in its stubs only
    Handler = grpc.RpcMethodHandler[Any, Any]
    Interceptor = grpc.aio.ServerInterceptor[Any, Any]
else:
    Handler = grpc.RpcMethodHandler
    Interceptor = grpc.aio.ServerInterceptor
Continuation = Callable[[grpc.HandlerCallDetails], Awaitable[Handler]]


class ReflectionNeedsToken(Interceptor):
    """Server reflection only for callers holding a bot's token or the admin token: the schema
    is no secret (bot.proto is published), but strangers need not map the arena's services."""

    def __init__(self, client: aioredis.Redis, admin_token: str | None) -> None:
        self._redis = client
        self._admin_token = admin_token

    async def intercept_service(
        self, continuation: Continuation, details: grpc.HandlerCallDetails
    ) -> Handler:
        if not details.method.startswith("/grpc.reflection."):
            return await continuation(details)
        token = bearer_token(details.invocation_metadata)
        try:
            allowed = await holds_token(self._redis, token, self._admin_token)
        except REDIS_DOWN:
            return grpc.stream_stream_rpc_method_handler(_refuse_unreachable)
        if allowed:
            return await continuation(details)
        return grpc.stream_stream_rpc_method_handler(_refuse_reflection)


async def _refuse_reflection(requests: Any, context: grpc.aio.ServicerContext[Any, Any]) -> None:
    await context.abort(
        grpc.StatusCode.UNAUTHENTICATED,
        "server reflection needs a bot's token or the admin token (authorization: Bearer ...)",
    )


async def _refuse_unreachable(requests: Any, context: grpc.aio.ServicerContext[Any, Any]) -> None:
    await context.abort(grpc.StatusCode.UNAVAILABLE, UNREACHABLE)
