"""ArenaService: admin calls need the admin token; listing bots and server reflection need a
bot's token or the admin token; bots and records can be listed and read."""

from __future__ import annotations

import grpc
import pytest
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

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
    listed = service.ListBots(arena_pb2.ListBotsRequest(), metadata=admin(arena))
    assert [(b.name, b.connected) for b in listed.bots] == [("offline", False), ("online", True)]
    assert all(b.bot_id.startswith("b") for b in listed.bots)  # the admin sees the ids
    channel.close()
    bot.close()


def test_list_bots_needs_a_token_and_a_bot_sees_only_public_fields(arena: Arena) -> None:
    token = arena.register_bot("member")
    channel, service = stub(arena)
    for metadata in ((), (("authorization", "Bearer not-a-token"),)):
        with pytest.raises(grpc.RpcError) as refused:
            service.ListBots(arena_pb2.ListBotsRequest(), metadata=metadata)
        assert refused.value.code() is grpc.StatusCode.UNAUTHENTICATED
        assert "token" in (refused.value.details() or "")
    listed = service.ListBots(
        arena_pb2.ListBotsRequest(), metadata=(("authorization", f"Bearer {token}"),)
    )
    assert [(b.name, b.bot_id, b.connected) for b in listed.bots] == [("member", "", False)]
    channel.close()


def list_services(arena: Arena, metadata: tuple[tuple[str, str], ...]) -> list[str]:
    channel = grpc.insecure_channel(arena.target)
    reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
    request = reflection_pb2.ServerReflectionRequest(list_services="")
    try:
        answers = list(reflection.ServerReflectionInfo(iter([request]), metadata=metadata))
    finally:
        channel.close()
    return [s.name for answer in answers for s in answer.list_services_response.service]


def test_server_reflection_needs_a_token(arena: Arena) -> None:
    for metadata in ((), (("authorization", "Bearer not-a-token"),)):
        with pytest.raises(grpc.RpcError) as refused:
            list_services(arena, metadata)
        assert refused.value.code() is grpc.StatusCode.UNAUTHENTICATED
    bot_token = arena.register_bot("curious")
    for token in (bot_token, arena.admin_token):
        services = list_services(arena, (("authorization", f"Bearer {token}"),))
        assert "arena.v1.BotGatewayService" in services and "arena.v1.ArenaService" in services


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
