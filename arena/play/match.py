"""A match: several games between named players, built-in bots or registered remote bots, one
player a side (`arena.referee.seats`): two in 2-player and team games, three at a Snitch table.

With duplicate deals (the default for Caper) each deal is played once per rotation of the sides:
the same seed twice with seats swapped for two sides, three times for a table of three (V12), so
the luck of the deal cancels out.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from typing import Any

import redis

from arena.bots import BUILTIN_BOTS, builtin_name, make_bot
from arena.games.api import Config, Game
from arena.play.hosted import HostedPrograms
from arena.play.metrics import GameMetrics, MatchMetrics
from arena.play.remote import GatewayLostError, RemoteSeat
from arena.play.texts import ACTION_TEXTS
from arena.referee.referee import BuiltinSeat, FaultPolicy, GameOutcome, Seat, referee_game
from arena.referee.seats import deals, layout, lineup
from arena.store import keys
from arena.store.bot_versions import BotVersions
from arena.store.bots import BotRegistry
from arena.store.relay import RunnerRelay

BATCH_GAMES = 100  # records per round trip, with the metrics of their games summed
VOID_ATTEMPTS = 4  # a match voided this often is given up (as a tournament's match is)
BACK_POLL_S = 0.2  # how often a replay checks whether the bots are connected again


class UnknownPlayerError(ValueError):
    """A name that is neither a built-in bot nor a registered one."""


class MatchVoidedError(RuntimeError):
    """A match voided on every attempt, or whose bots did not come back to replay it."""


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
    nothing is lost by writing its games a few at a time, and the round trips add up. The
    programs of hosted bots run for the match and are stopped at its end, however it ends."""
    with HostedPrograms(client) as hosted:
        hosted.start(players)
        return _play_games(
            client, game, config, players, games, seed, policy, match_id, duplicate, hosted
        )


def _play_games(
    client: redis.Redis,
    game: Game[Any, Any],
    config: Config,
    players: Sequence[str],
    games: int,
    seed: int,
    policy: FaultPolicy,
    match_id: str,
    duplicate: bool,
    hosted: HostedPrograms,
) -> list[GameOutcome]:
    seating = layout(game, config)
    seating.seat_names(players)  # the right number of players, before any game is played
    outcomes = []
    pending = client.pipeline(transaction=False)
    tally = MatchMetrics(game.id)  # queued with each batch of records
    for index, (game_seed, rotation) in enumerate(deals(games, seed, duplicate, len(players))):
        names = seating.seat_names(lineup(players, rotation))
        seats = [
            _seat(client, game, name, game_seed, seat, hosted) for seat, name in enumerate(names)
        ]
        game_id = f"{match_id}.g{index}"
        observed = GameMetrics(client, game.id)
        try:
            outcome = referee_game(
                game,
                config,
                game_seed,
                observed.wrap(seats),
                policy,
                game_id,
                timer=time.perf_counter,
                texts=ACTION_TEXTS,
            )
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


def _seat(
    client: redis.Redis,
    game: Game[Any, Any],
    name: str,
    seed: int,
    seat: int,
    hosted: HostedPrograms,
) -> Seat:
    if builtin_name(name) in BUILTIN_BOTS:
        return BuiltinSeat(make_bot(name), game, seed, seat, name)
    bot = BotRegistry(client).by_name(name)
    if bot is None:
        known = ", ".join(sorted(BUILTIN_BOTS))
        raise UnknownPlayerError(
            f"unknown player {name!r}: not a registered bot, nor a built-in one ({known})"
        )
    if hosted.is_hosted(bot):  # a game its program does not play is lost by its faults
        return hosted.seat(bot, game)
    BotRegistry(client).check_plays(name, game.id)
    return RemoteSeat(RunnerRelay(client), bot.bot_id, bot.name, game)


def play_match_replaying_voids(
    client: redis.Redis,
    game: Game[Any, Any],
    config: Config,
    players: Sequence[str],
    games: int,
    seed: int,
    policy: FaultPolicy,
    match_id: str,
    duplicate: bool = True,
    told: Callable[[str], None] = lambda line: None,
) -> list[GameOutcome]:
    """`play_match`, replayed from scratch under the same id when a game is void (a bot's
    gateway was lost), as a tournament replays its match, up to VOID_ATTEMPTS in all. `told`
    hears one line per replay. A replay waits up to the grace period for the registered bots
    to connect again; raises MatchVoidedError when they do not, or after the last attempt."""
    attempt = 1
    while True:
        try:
            return play_match(
                client, game, config, players, games, seed, policy, match_id, duplicate
            )
        except GatewayLostError as error:
            if attempt == VOID_ATTEMPTS:
                raise MatchVoidedError(
                    f"{error}; void on every attempt ({VOID_ATTEMPTS}): the match is not scored"
                ) from None
            attempt += 1
            told(f"{error}; replaying the match (attempt {attempt} of {VOID_ATTEMPTS})")
            _wait_for_bots(client, players, policy.grace_ms, str(error))


def _wait_for_bots(client: redis.Redis, players: Sequence[str], grace_ms: int, why: str) -> None:
    registry, relay = BotRegistry(client), RunnerRelay(client)
    give_up = time.monotonic() + grace_ms / 1000
    for name in players:
        bot = None if builtin_name(name) in BUILTIN_BOTS else registry.by_name(name)
        if bot is not None and BotVersions(client).is_hosted(bot.bot_id):
            continue  # the arena runs it: nothing to wait for
        while bot is not None and not relay.is_online(bot.bot_id):
            if time.monotonic() > give_up:
                raise MatchVoidedError(
                    f"{why}; bot {name} did not connect again within the grace period "
                    f"({grace_ms} ms): the match is not scored"
                )
            time.sleep(BACK_POLL_S)
