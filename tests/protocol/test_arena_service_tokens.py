"""arena.proto says which token each ArenaService call needs; a real gateway does what it says.
Every rpc must say it, so a new call cannot leave bot authors guessing."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from arena.gateway.testing import Arena, running_arena
from arena.v1 import arena_pb2, arena_pb2_grpc

PROTO = Path(__file__).resolve().parents[2] / "proto" / "arena" / "v1" / "arena.proto"
ADMIN = "Needs the admin token"
ANY = "Needs a bot's token or the admin token"
RPC = re.compile(r"((?:^  //.*\n)+)^  rpc (\w+)\(", re.M)

pytestmark = pytest.mark.timeout(120)


def documented_tokens() -> dict[str, str]:
    """Each rpc's name and the token sentence of its leading comment."""
    found = {}
    for comment, name in RPC.findall(PROTO.read_text(encoding="utf-8")):
        text = " ".join(line.strip().removeprefix("//").strip() for line in comment.splitlines())
        said = [sentence for sentence in (ADMIN, ANY) if sentence in text]
        assert len(said) == 1, f"rpc {name} must say either {ADMIN!r} or {ANY!r}: {text}"
        found[name] = said[0]
    return found


def test_every_rpc_says_which_token_it_needs() -> None:
    service = arena_pb2.DESCRIPTOR.services_by_name["ArenaService"]
    assert set(documented_tokens()) == {method.name for method in service.methods}


@pytest.fixture
def arena(redis_server_url: str) -> Iterator[Arena]:
    with running_arena(redis_server_url) as running:
        yield running


def _call(arena: Arena, rpc: str, token: str | None) -> grpc.StatusCode:
    requests: dict[str, Any] = {
        "RegisterBot": arena_pb2.RegisterBotRequest(name=f"doc-{secrets.token_hex(4)}"),
        "ListBots": arena_pb2.ListBotsRequest(),
        "GetGameRecord": arena_pb2.GetGameRecordRequest(game_id="no-such-game"),
    }
    metadata = (("authorization", f"Bearer {token}"),) if token else ()
    with grpc.insecure_channel(arena.target) as channel:
        stub = arena_pb2_grpc.ArenaServiceStub(channel)
        try:
            getattr(stub, rpc)(requests[rpc], metadata=metadata, timeout=30)
        except grpc.RpcError as error:
            return error.code()
    return grpc.StatusCode.OK


def test_the_gateway_asks_for_the_documented_tokens(arena: Arena) -> None:
    bot_token = arena.register_bot(f"doc-{secrets.token_hex(4)}")
    refused = (grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.UNAUTHENTICATED)
    for rpc, needs in documented_tokens().items():
        without = (
            grpc.StatusCode.PERMISSION_DENIED if needs == ADMIN else grpc.StatusCode.UNAUTHENTICATED
        )
        assert _call(arena, rpc, None) is without, rpc
        assert _call(arena, rpc, "wrong-token") is without, rpc
        as_bot = _call(arena, rpc, bot_token)
        if needs == ADMIN:
            assert as_bot is grpc.StatusCode.PERMISSION_DENIED, rpc
        else:
            assert as_bot not in refused, rpc
        assert _call(arena, rpc, arena.admin_token) not in refused, rpc


def test_register_bot_fails_as_documented(arena: Arena) -> None:
    assert (
        "Fails with INVALID_ARGUMENT if the\n  // name is malformed or taken." in PROTO.read_text()
    )
    name = f"doc-{secrets.token_hex(4)}"
    arena.register_bot(name)
    admin = (("authorization", f"Bearer {arena.admin_token}"),)
    with grpc.insecure_channel(arena.target) as channel:
        stub = arena_pb2_grpc.ArenaServiceStub(channel)
        for taken_or_bad in (name, "no spaces allowed"):
            with pytest.raises(grpc.RpcError) as refused:
                stub.RegisterBot(arena_pb2.RegisterBotRequest(name=taken_or_bad), metadata=admin)
            assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
