"""Rotating a bot's token and revoking a bot (arena.services.bots) against a real gateway: the
open stream is closed, the old token is refused, a rotated bot's new token connects."""

from __future__ import annotations

import grpc
import pytest

from arena.games import base_config, get_game
from arena.gateway.hub import ENDED_BY_ARENA
from arena.gateway.testing import Arena
from arena.services import bots
from arena.store.bots import BotRegistry, BotRegistryError
from arena.store.relay import StreamEnd
from tests.gateway.rawbot import RawBot
from tests.gateway.test_bot_gateway import connect, status_of


def test_rotating_a_token_closes_the_stream_and_only_the_new_token_connects(
    arena: Arena,
) -> None:
    bot = connect(arena, "rotated")
    old = BotRegistry(arena.client).by_name("rotated")
    assert old is not None
    info, token = bots.rotate_token(arena.client, "rotated")
    assert info.bot_id == old.bot_id
    assert not BotRegistry(arena.client).is_online(old.bot_id)  # at once, not at a heartbeat
    # Closed by the gateway's next heartbeat, saying why: not "a newer connection".
    assert status_of(bot) is grpc.StatusCode.UNAUTHENTICATED
    assert bot.error is not None and bot.error.details() == ENDED_BY_ARENA[StreamEnd.TOKEN_ROTATED]
    assert "token was rotated" in (bot.error.details() or "")
    stale = RawBot(arena.target, bot.token).start()
    assert status_of(stale) is grpc.StatusCode.UNAUTHENTICATED
    fresh = RawBot(arena.target, token).start()
    assert fresh.welcomed.wait(10), fresh.error
    fresh.close()


def test_an_unknown_bot_s_token_cannot_be_rotated(arena: Arena) -> None:
    with pytest.raises(BotRegistryError, match="no bot named 'ghost'"):
        bots.rotate_token(arena.client, "ghost")


def test_revoking_a_bot_closes_its_stream_and_no_token_works_for_it_again(
    arena: Arena,
) -> None:
    bot = connect(arena, "gone")
    revoked = bots.revoke(arena.client, "gone")
    assert revoked.name == "gone" and revoked.revoked is not None
    assert status_of(bot) is grpc.StatusCode.UNAUTHENTICATED
    assert bot.error is not None and "this bot was revoked" in (bot.error.details() or "")
    assert status_of(RawBot(arena.target, bot.token).start()) is grpc.StatusCode.UNAUTHENTICATED
    with pytest.raises(BotRegistryError, match="bot gone was revoked"):
        bots.rotate_token(arena.client, "gone")
    with pytest.raises(BotRegistryError, match="bot gone was revoked"):
        bots.revoke(arena.client, "gone")
    with pytest.raises(BotRegistryError, match="was revoked: it plays no more"):
        game = get_game("caper")
        bots.check_players(arena.client, game, base_config("caper"), ["gone", "random"], 1)
    with pytest.raises(BotRegistryError, match="already registered"):
        bots.register(arena.client, "gone")  # the name stays its, with its history
