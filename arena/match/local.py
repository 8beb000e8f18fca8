"""Play games between built-in bots in this process: no clocks, no network, no Redis.

This is the referee's core loop; the networked referee adds deadlines and fault handling
around the same steps.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arena.bots.base import Bot
from arena.games.api import Config, Game, Result
from arena.games.record import GameRecord


@dataclass(frozen=True, slots=True)
class PlayedGame:
    record: GameRecord
    result: Result


def bot_rng(seed: int, seat: int) -> random.Random:
    """The generator a bot in `seat` of game `seed` draws from: fixed, so games replay exactly."""
    return random.Random(f"{seed}/{seat}")


def play_game(game: Game[Any, Any], config: Config, seed: int, bots: Sequence[Bot]) -> PlayedGame:
    """One complete game, `bots[seat]` playing each seat."""
    state = game.create(config, seed)
    rngs = [bot_rng(seed, seat) for seat in range(len(bots))]
    actions: list[str] = []
    while (seat := game.current_player(state)) is not None:
        legal = game.legal_actions(state)
        action = bots[seat].choose(game, game.observation(state, seat), legal, rngs[seat])
        state = game.apply(state, action, seat)
        actions.append(game.action_text(action))
    result = game.result(state)
    record = GameRecord(
        game=game.id,
        rules_version=game.rules_version,
        config=dict(config),
        seed=seed,
        actions=tuple(actions),
        players=tuple(bot.name for bot in bots),
        result=result.to_json(),
    )
    return PlayedGame(record, result)


def play_duplicate_pair(
    game: Game[Any, Any], config: Config, seed: int, first: Bot, second: Bot
) -> tuple[PlayedGame, PlayedGame]:
    """The same deal twice with seats swapped: `first` sits in seat 0 of the first game."""
    return (
        play_game(game, config, seed, (first, second)),
        play_game(game, config, seed, (second, first)),
    )
