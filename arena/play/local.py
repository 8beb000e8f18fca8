"""Play games between built-in bots in this process: no clocks, no network, no Redis."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from arena.bots import make_bot
from arena.bots.base import Bot
from arena.games.api import Config, Game, Result
from arena.games.record import GameRecord
from arena.play.texts import ACTION_TEXTS
from arena.referee.referee import UNTIMED, BuiltinSeat, FaultPolicy, Seat, referee_game
from arena.referee.seats import layout, lineup

if TYPE_CHECKING:
    from arena.hosted.program import Program


@dataclass(frozen=True, slots=True)
class PlayedGame:
    record: GameRecord
    result: Result


def play_game(
    game: Game[Any, Any],
    config: Config,
    seed: int,
    bots: Sequence[Bot],
    names: Sequence[str] = (),
) -> PlayedGame:
    """One complete game, `bots[seat]` playing each seat (under `names[seat]` if given),
    refereed with no time limits."""
    seats = [
        BuiltinSeat(bot, game, seed, seat, names[seat] if names else None)
        for seat, bot in enumerate(bots)
    ]
    outcome = referee_game(
        game,
        config,
        seed,
        seats,
        UNTIMED,
        game_id=f"local-{seed}",
        timer=time.perf_counter,
        texts=ACTION_TEXTS,
    )
    return PlayedGame(outcome.record, outcome.result)


def play_rotation(
    game: Game[Any, Any],
    config: Config,
    seed: int,
    entrants: Sequence[str],
    rotation: int,
    programs: Mapping[str, Program] | None = None,
) -> PlayedGame:
    """Deal `seed` with entrant i (a built-in bot's name, or one of `programs`) playing side
    (i + rotation) mod k. Every built-in seat gets its own bot instance, so the two seats of a
    team share nothing but their program (V11). With programs the game is timed (the default
    fault policy): a program may stall, a built-in bot may not."""
    names = layout(game, config).seat_names(lineup(entrants, rotation))
    if not programs:
        return play_game(game, config, seed, [make_bot(name) for name in names], names)
    from arena.hosted.seat import ProgramSeat

    seats: list[Seat] = [
        ProgramSeat(programs[name], name, game)
        if name in programs
        else BuiltinSeat(make_bot(name), game, seed, seat, name)
        for seat, name in enumerate(names)
    ]
    outcome = referee_game(
        game,
        config,
        seed,
        seats,
        FaultPolicy(),
        game_id=f"local-{seed}-{rotation}",
        timer=time.perf_counter,
        texts=ACTION_TEXTS,
    )
    return PlayedGame(outcome.record, outcome.result)


def play_duplicate_pair(
    game: Game[Any, Any], config: Config, seed: int, first: Bot, second: Bot
) -> tuple[PlayedGame, PlayedGame]:
    """The same deal twice with seats swapped: `first` sits in seat 0 of the first game."""
    return (
        play_game(game, config, seed, (first, second)),
        play_game(game, config, seed, (second, first)),
    )
