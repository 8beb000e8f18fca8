"""Run a `Bot` as a program bot: the arena starts this process and speaks to it over stdin and
stdout, one protocol message a line in protobuf's JSON mapping (docs/program-protocol.md). The
bot's code is the same as when it connects to a gateway."""

from __future__ import annotations

import logging
import sys
from typing import IO

from arena.hosted.jsonlines import decode_response, encode
from arena.hosted.program import PROTOCOL_VERSION
from arena.v1 import bot_pb2
from bots_sdk.bot import BotSource
from bots_sdk.player import BotFault, Player

LOG = logging.getLogger("bots_sdk")


def run_stdio(
    bot: BotSource, stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None
) -> int:
    """Say hello, then answer every message until the arena closes stdin; return how many
    games ended. Logs go to stderr, which the arena keeps for the bot's owner."""
    source = stdin or sys.stdin.buffer
    sink = stdout or sys.stdout.buffer
    player = Player(bot)
    hello = bot_pb2.Hello(
        protocol_version=PROTOCOL_VERSION,
        games=list(player.bot.games),
        bot_version=player.bot.version,
        info=player.bot.info,
    )
    _write(sink, bot_pb2.ConnectRequest(hello=hello))
    for line in source:
        if not line.strip():
            continue
        try:
            reply = player.handle(decode_response(line))
        except BotFault:
            LOG.exception("the bot failed; no answer sent")  # the arena's fault policy decides
            continue
        except ValueError:
            LOG.exception("could not read a message from the arena")
            continue
        if reply is not None:
            _write(sink, reply)
    return player.games_over


def _write(sink: IO[bytes], message: bot_pb2.ConnectRequest) -> None:
    sink.write(encode(message))
    sink.flush()
