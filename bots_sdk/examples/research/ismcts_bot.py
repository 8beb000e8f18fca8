"""OpenSpiel's IS-MCTS on the arena's games: measured against random play, then played as a bot.

Evaluate (IS-MCTS takes each seat in turn against uniform random play, on OpenSpiel's game):
    python -m bots_sdk.examples.research.ismcts_bot evaluate --game caper --games 20
Play on an arena through the SDK (each decision searches from the bot's own observation, with
what it cannot see sampled by the engine's sampler):
    python -m bots_sdk.examples.research.ismcts_bot play --target localhost:50051 --token $TOKEN

Needs the research extra: pip install -e '.[research]'.
"""

from __future__ import annotations

import argparse
import functools
import logging
import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from arena.research.hidden import SAMPLE
from arena.research.openspiel_game import FACTORIES, PARAMETERS, ArenaGame
from bots_sdk import Bot, GameAction, GameStart, Observation, run

SIMULATIONS = 50  # searches a decision: well inside the arena's default time a move


def load(game_id: str, config: Mapping[str, str | int]) -> ArenaGame:
    """The OpenSpiel game of `game_id` set up with the settings of `config` it takes."""
    params = {key: value for key, value in config.items() if key in PARAMETERS[game_id]}
    return FACTORIES[game_id](params)


def searcher(game: ArenaGame, simulations: int, seed: int) -> ismcts.ISMCTSBot:
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    return ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=rng)


def evaluate(game: ArenaGame, games: int, simulations: int, seed: int) -> tuple[int, int]:
    """Games IS-MCTS won and drew in `games` against random play, taking seat g % n in game g."""
    search, rng = searcher(game, simulations, seed), np.random.RandomState(seed + 1)
    won = drawn = 0
    for number in range(games):
        state, seat = game.new_initial_state(), number % game.num_players()
        state.apply_action(seed * games + number)  # the deal
        while not state.is_terminal():
            mine = state.current_player() == seat
            state.apply_action(search.step(state) if mine else rng.choice(state.legal_actions()))
        won += state.returns()[seat] > 0
        drawn += state.returns()[seat] == 0
    return won, drawn


class ISMCTSPlayer(Bot):
    """Each decision: IS-MCTS from a state sampled from the observation (the engine's sampler),
    resampled for every simulation."""

    name, version = "ismcts-example", "1.0"
    games = ("caper", "caper-europe", "age-of-thieves")

    def __init__(self, simulations: int = SIMULATIONS, seed: int | None = None) -> None:
        self.simulations = simulations
        self.rng = random.Random(seed)
        self.game: ArenaGame | None = None
        self.game_id = ""

    def on_game_start(self, game: GameStart) -> None:
        self.game_id = game.game
        self.game = load(game.game, game.config)

    def act(self, observation: Observation, legal: Sequence[GameAction]) -> GameAction:
        if self.game is None:
            raise RuntimeError("a decision came before the game started")
        state = self.game.state_from_engine(SAMPLE[self.game_id](observation, self.rng))
        search = searcher(self.game, self.simulations, self.rng.randrange(2**31))
        action: Any = self.game.table.action(int(search.step(state)))
        if action not in legal:  # the sampled state's legal actions are the observation's
            raise RuntimeError(f"IS-MCTS chose {action}, which is not legal here")
        return action  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    measure = commands.add_parser("evaluate", help="IS-MCTS against random play")
    measure.add_argument("--game", default="caper", choices=sorted(FACTORIES))
    measure.add_argument("--city", default=None)
    measure.add_argument("--players", type=int, default=None)
    measure.add_argument("--games", type=int, default=20)
    measure.add_argument("--seed", type=int, default=0)
    play = commands.add_parser("play", help="play on an arena through the SDK")
    play.add_argument("--target", default="localhost:50051")
    play.add_argument("--token", required=True)
    play.add_argument("--games", type=int, default=None, help="stop after this many games")
    for command in (measure, play):
        command.add_argument("--simulations", type=int, default=SIMULATIONS)
    args = parser.parse_args()
    if args.command == "evaluate":
        _evaluate(args)
    else:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
        player = functools.partial(ISMCTSPlayer, args.simulations)  # a fresh bot per seat
        run(player, args.target, args.token, max_games=args.games)


def _evaluate(args: argparse.Namespace) -> None:
    config = {"city": args.city, "players": args.players}
    for key, value in config.items():
        if value is not None and key not in PARAMETERS[args.game]:
            raise SystemExit(f"error: {args.game} takes no --{key}")
    try:
        game = load(args.game, {key: value for key, value in config.items() if value is not None})
    except (ValueError, pyspiel.SpielError) as error:
        raise SystemExit(f"error: {error}") from None
    won, drawn = evaluate(game, args.games, args.simulations, args.seed)
    lost = args.games - won - drawn
    print(
        f"IS-MCTS ({args.simulations} simulations) against random play, {game.variant}: "
        f"won {won}, drew {drawn}, lost {lost} of {args.games} games "
        f"(win rate {won / args.games:.0%})"
    )


if __name__ == "__main__":
    main()
