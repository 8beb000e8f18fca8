"""ArenaService: what organisers and the CLI ask of a running arena, through the same services
(`arena.services`) the CLI and the web site call."""

from __future__ import annotations

import asyncio
from typing import Any

import grpc
import redis

from arena.gateway.auth import bearer_token, is_admin
from arena.services import bots as bot_service
from arena.store import keys
from arena.store.bots import BotRegistry, BotRegistryError
from arena.store.values import as_text
from arena.v1 import arena_pb2, arena_pb2_grpc

Context = grpc.aio.ServicerContext[Any, Any]


class ArenaService(arena_pb2_grpc.ArenaServiceServicer):
    def __init__(self, client: redis.Redis, admin_token: str | None) -> None:
        # The registry is synchronous: calls run in a thread, off the event loop.
        self._redis = client
        self._registry = BotRegistry(client)
        self._admin_token = admin_token

    async def RegisterBot(
        self, request: arena_pb2.RegisterBotRequest, context: Context
    ) -> arena_pb2.RegisterBotResponse:
        await self._require_admin(context)
        try:
            info, token = await asyncio.to_thread(bot_service.register, self._redis, request.name)
        except BotRegistryError as error:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(error))
        return arena_pb2.RegisterBotResponse(bot_id=info.bot_id, token=token)

    async def ListBots(
        self, request: arena_pb2.ListBotsRequest, context: Context
    ) -> arena_pb2.ListBotsResponse:
        # A bot sees who else plays, not the ids the arena's Redis keys are built from.
        admin = await self._require_token(context)
        listed = await asyncio.to_thread(bot_service.listing, self._redis)
        return arena_pb2.ListBotsResponse(
            bots=[
                arena_pb2.BotSummary(
                    bot_id=bot.info.bot_id if admin else "",
                    name=bot.info.name,
                    connected=bot.online,
                )
                for bot in listed
            ]
        )

    async def GetGameRecord(
        self, request: arena_pb2.GetGameRecordRequest, context: Context
    ) -> arena_pb2.GetGameRecordResponse:
        # Admin only: a finished game's seed is the deal of its duplicate twin still in play.
        await self._require_admin(context)
        record = await asyncio.to_thread(self._redis.get, keys.game_record(request.game_id))
        if record is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no game {request.game_id!r}")
        assert record is not None
        return arena_pb2.GetGameRecordResponse(record_json=as_text(record))

    async def _require_token(self, context: Context) -> bool:
        """Whether the caller is the admin; a caller with neither the admin token nor a bot's is
        refused."""
        token = bearer_token(context.invocation_metadata())
        if is_admin(token, self._admin_token):
            return True
        if token is None or await asyncio.to_thread(self._registry.authenticate, token) is None:
            await context.abort(
                grpc.StatusCode.UNAUTHENTICATED, "this call needs a bot's token or the admin token"
            )
        return False

    async def _require_admin(self, context: Context) -> None:
        if not is_admin(bearer_token(context.invocation_metadata()), self._admin_token):
            await context.abort(
                grpc.StatusCode.PERMISSION_DENIED, "this call needs the admin token"
            )
