"""A match: several games between named players, built-in bots or registered remote bots, one
player a side (`arena.match.seats`): two in 2-player and team games, three at a Snitch table.

With duplicate deals (the default for Caper) each deal is played once per rotation of the sides:
the same seed twice with seats swapped for two sides, three times for a table of three (V12), so
the luck of the deal cancels out.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

import redis

from arena.bots import BUILTIN_BOTS, builtin_name, make_bot
from arena.games.api import Config, Game
from arena.match.metrics import GameMetrics, MatchMetrics
from arena.match.referee import BuiltinSeat, FaultPolicy, GameOutcome, Seat, referee_game
from arena.match.remote import RemoteSeat
from arena.match.seats import layout, lineup
from arena.store import keys
from arena.store.bots import BotRegistry
from arena.store.relay import RunnerRelay

BATCH_GAMES = 100  # records per round trip, with the metrics of their games summed


class UnknownPlayerError(ValueError):
    """A name that is neither a built-in bot nor a registered one."""


def deals(games: int, seed: int, duplicate: bool, sides: int = 2) -> list[tuple[int, int]]:
    """(seed, rotation) for each game of a match (`seats.lineup`: with two sides, rotation 1
    swaps the seats). Without duplicates the rotations still take turns."""
    if duplicate:
        return [(seed + index // sides, index % sides) for index in range(games)]
    return [(seed + index, index % sides) for index in range(games)]


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
    """Play every game of the match in order, `players` naming one entrant a side; each
    record is stored under its game id.

    Records and metrics are written in batches: a match that fails is replayed from scratch, so
    nothing is lost by writing its games a few at a time, and the round trips add up."""
    seating = layout(game, config)
    seating.seat_names(players)  # the right number of players, before any game is played
    outcomes = []
    pending = client.pipeline(transaction=False)
    tally = MatchMetrics(game.id)  # queued with each batch of records
    for index, (game_seed, rotation) in enumerate(deals(games, seed, duplicate, len(players))):
        names = seating.seat_names(lineup(players, rotation))
        seats = [_seat(client, game, name, game_seed, seat) for seat, name in enumerate(names)]
        game_id = f"{match_id}.g{index}"
        observed = GameMetrics(client, game.id)
        try:
            outcome = referee_game(game, config, game_seed, observed.wrap(seats), policy, game_id)
        except Exception:
            with contextlib.suppress(redis.RedisError):
                tally.queue(pending)
                pending.execute()  # the games that did end were played: they count as such
                for seat in seats:
                    if isinstance(seat, RemoteSeat):
                        seat.abandon(game_id)
            observed.voided(index + 1)  # a rerun of the match replays this game and earlier ones
            raise
        pending.set(keys.game_record(game_id), outcome.record.dumps())
        observed.add_to(tally, outcome)
        if len(pending) >= BATCH_GAMES:
            tally.queue(pending)
            pending.execute()
        outcomes.append(outcome)
    tally.queue(pending)
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
