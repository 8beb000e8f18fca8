"""ArenaService: admin calls need the admin token; bots and records can be listed and read."""

from __future__ import annotations

import grpc
import pytest

from arena.gateway.testing import Arena
from arena.v1 import arena_pb2, arena_pb2_grpc
from tests.gateway.test_bot_gateway import connect


def stub(arena: Arena) -> tuple[grpc.Channel, arena_pb2_grpc.ArenaServiceStub]:
    channel = grpc.insecure_channel(arena.target)
    return channel, arena_pb2_grpc.ArenaServiceStub(channel)


def admin(arena: Arena) -> tuple[tuple[str, str | bytes], ...]:
    return (("authorization", f"Bearer {arena.admin_token}"),)


def test_register_needs_the_admin_token_and_returns_a_working_token(arena: Arena) -> None:
    channel, service = stub(arena)
    with pytest.raises(grpc.RpcError) as denied:
        service.RegisterBot(
            arena_pb2.RegisterBotRequest(name="x"), metadata=(("authorization", "Bearer nope"),)
        )
    assert denied.value.code() is grpc.StatusCode.PERMISSION_DENIED
    answer = service.RegisterBot(arena_pb2.RegisterBotRequest(name="newbie"), metadata=admin(arena))
    assert answer.bot_id and len(answer.token) >= 32
    with pytest.raises(grpc.RpcError) as taken:
        service.RegisterBot(arena_pb2.RegisterBotRequest(name="newbie"), metadata=admin(arena))
    assert taken.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert "already registered" in (taken.value.details() or "")
    channel.close()


def test_list_bots_shows_who_is_connected(arena: Arena) -> None:
    bot = connect(arena, "online")
    arena.register_bot("offline")
    channel, service = stub(arena)
    listed = service.ListBots(arena_pb2.ListBotsRequest())
    assert [(b.name, b.connected) for b in listed.bots] == [("offline", False), ("online", True)]
    channel.close()
    bot.close()


def test_game_records_are_for_admins_and_unknown_ids_are_not_found(arena: Arena) -> None:
    outcome = arena.play_match("random", "greedy", games=1)[0]
    game_id = outcome.record.meta["game_id"]
    channel, service = stub(arena)
    with pytest.raises(grpc.RpcError) as denied:
        service.GetGameRecord(arena_pb2.GetGameRecordRequest(game_id=game_id))
    assert denied.value.code() is grpc.StatusCode.PERMISSION_DENIED
    record = service.GetGameRecord(
        arena_pb2.GetGameRecordRequest(game_id=game_id), metadata=admin(arena)
    )
    assert '"actions"' in record.record_json
    with pytest.raises(grpc.RpcError) as missing:
        service.GetGameRecord(arena_pb2.GetGameRecordRequest(game_id="nope"), metadata=admin(arena))
    assert missing.value.code() is grpc.StatusCode.NOT_FOUND
    channel.close()
