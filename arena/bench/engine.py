"""`arena bench engine`: random-vs-random games per second, and built-in bots in self-play."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from arena.games import base_config, get_game
from arena.games.api import Config, ConfigError

PLAYER_COUNTS = (2, 3, 4)


@dataclass(frozen=True, slots=True)
class Throughput:
    games: int
    decisions: int
    seconds: float  # CPU time of this process: other load on a shared machine does not count
    wall_seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds


def engine_configs(game_id: str, city: str | None) -> list[dict[str, str | int]]:
    """The configurations `arena bench engine` measures: the city with every number of players
    the game takes (2 only for games without a `players` setting). `ConfigError` if the game
    has no such city."""
    game = get_game(game_id)
    configs: list[dict[str, str | int]] = [base_config(game_id, city)]
    game.create(configs[0], 0)
    for players in PLAYER_COUNTS[1:]:
        config = base_config(game_id, city, players)
        try:
            game.create(config, 0)
        except ConfigError:
            continue
        configs.append(config)
    return configs


def engine_throughput(game_id: str, config: Config, seconds: float, seed: int = 0) -> Throughput:
    """Full random-vs-random games on this core for about `seconds`: create, list legal
    actions, pick one uniformly, apply, until the end, then score."""
    game = get_game(game_id)
    rng = random.Random(seed)
    games = decisions = 0
    wall, start = time.perf_counter(), time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        state = game.create(config, seed + games)
        while not game.is_terminal(state):
            legal = game.legal_actions(state)
            state = game.apply(state, legal[rng.randrange(len(legal))])
            decisions += 1
        game.result(state)
        games += 1
    return Throughput(games, decisions, time.process_time() - start, time.perf_counter() - wall)


@dataclass(frozen=True, slots=True)
class SelfPlay:
    """One built-in bot in every seat: how each seat fares, over `games` deals."""

    games: int
    mean_scores: tuple[float, ...]  # per seat
    wins: tuple[int, ...]  # per seat: the seats `Result.details["winners"]` names, or the winner


def self_play(game_id: str, config: Config, bot: str, games: int, seed: int = 0) -> SelfPlay:
    """`games` games of `bot` against itself in every seat, each seat seeing only its own view
    (for the 3- and 4-player Caper games, where the seats play different roles)."""
    from arena.bots import make_bot  # the engine benchmark does without the bots

    game = get_game(game_id)
    totals: list[float] = []
    wins: list[int] = []
    for number in range(seed, seed + games):
        state = game.create(config, number)
        seats = game.seat_count(state) if hasattr(game, "seat_count") else game.num_players
        bots = [make_bot(bot) for _ in range(seats)]
        rngs = [random.Random(f"{number}/{seat}") for seat in range(seats)]
        while (seat := game.current_player(state)) is not None:
            view = game.observation(state, seat)
            action = bots[seat].choose(game, view, game.legal_actions(state), rngs[seat])
            state = game.apply(state, action, seat)
        result = game.result(state)
        totals = [a + b for a, b in zip(totals or [0.0] * seats, result.scores, strict=True)]
        wins = wins or [0] * seats
        for winner in result.details.get("winners", [result.winner]):
            wins[winner] += 1
    return SelfPlay(games, tuple(total / games for total in totals), tuple(wins))
