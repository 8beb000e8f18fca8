"""A match: several games between two named players, built-in bots or registered remote bots.

With duplicate deals (the default for Caper) games come in pairs: the same seed twice, seats
swapped, so the luck of the deal cancels out.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

import redis

from arena.bots import BUILTIN_BOTS, builtin_name, make_bot
from arena.games.api import Config, Game
from arena.match.metrics import GameMetrics
from arena.match.referee import BuiltinSeat, FaultPolicy, GameOutcome, Seat, referee_game
from arena.match.remote import RemoteSeat
from arena.store import keys
from arena.store.bots import BotRegistry
from arena.store.relay import RunnerRelay

BATCH_COMMANDS = 500  # about 50 games' records and metrics per round trip


class UnknownPlayerError(ValueError):
    """A name that is neither a built-in bot nor a registered one."""


def deals(games: int, seed: int, duplicate: bool) -> list[tuple[int, bool]]:
    """(seed, seats swapped) for each game of a match."""
    if duplicate:
        return [(seed + index // 2, index % 2 == 1) for index in range(games)]
    return [(seed + index, index % 2 == 1) for index in range(games)]


def play_match(
    client: redis.Redis,
    game: Game[Any, Any],
    config: Config,
    players: Sequence[str],
    games: int,
    seed: int,
    policy: FaultPolicy,
    match_id: str,
    duplicate: bool = True,
) -> list[GameOutcome]:
    """Play every game of the match in order; each record is stored under its game id.

    Records and metrics are written in batches: a match that fails is replayed from scratch, so
    nothing is lost by writing its games a few at a time, and the round trips add up."""
    outcomes = []
    pending = client.pipeline(transaction=False)
    for index, (game_seed, swapped) in enumerate(deals(games, seed, duplicate)):
        order = (players[1], players[0]) if swapped else (players[0], players[1])
        seats = [_seat(client, game, name, game_seed, seat) for seat, name in enumerate(order)]
        game_id = f"{match_id}.g{index}"
        observed = GameMetrics(client, game.id)
        try:
            outcome = referee_game(game, config, game_seed, observed.wrap(seats), policy, game_id)
        except Exception:
            with contextlib.suppress(redis.RedisError):
                pending.execute()  # the games that did end were played: they count as such
            observed.voided(index + 1)  # a rerun of the match replays this game and earlier ones
            raise
        pending.set(keys.game_record(game_id), outcome.record.dumps())
        observed.finished(outcome, pending)
        if len(pending) >= BATCH_COMMANDS:
            pending.execute()
        outcomes.append(outcome)
    pending.execute()
    return outcomes


def _seat(client: redis.Redis, game: Game[Any, Any], name: str, seed: int, seat: int) -> Seat:
    if builtin_name(name) in BUILTIN_BOTS:
        return BuiltinSeat(make_bot(name), game, seed, seat, name)
    bot = BotRegistry(client).by_name(name)
    if bot is None:
        known = ", ".join(sorted(BUILTIN_BOTS))
        raise UnknownPlayerError(
            f"unknown player {name!r}: not a registered bot, nor a built-in one ({known})"
        )
    BotRegistry(client).check_plays(name, game.id)
    return RemoteSeat(RunnerRelay(client), bot.bot_id, bot.name, game)
