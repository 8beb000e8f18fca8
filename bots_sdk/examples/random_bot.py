"""A complete bot for both Caper editions and Age of Thieves: plays a random legal action,
preferring (in Caper) to play a card over discarding one or passing.

python -m bots_sdk.examples.random_bot --target localhost:50051 --token $TOKEN
python -m bots_sdk.examples.random_bot --stdio    (a program bot: the arena runs it)
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
from collections.abc import Sequence

from bots_sdk import (
    ActionKind,
    ArenaError,
    Bot,
    EuropeActionKind,
    GameAction,
    Observation,
    run,
)
from bots_sdk.stdio import run_stdio

# Compared by identity: the two editions' kinds are different enums with overlapping numbers.
NOT_PLAYING = (ActionKind.DISCARD, ActionKind.PASS, EuropeActionKind.DISCARD)


class RandomBot(Bot):
    name, version = "random-example", "1.1"
    games = ("caper", "caper-europe", "age-of-thieves")

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Observation, legal: Sequence[GameAction]) -> GameAction:
        plays = [a for a in legal if all(a.kind is not kind for kind in NOT_PLAYING)]
        return self.rng.choice(plays or legal)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--target", default="localhost:50051")
    parser.add_argument("--token")
    parser.add_argument("--games", type=int, default=None, help="stop after this many games")
    parser.add_argument("--stdio", action="store_true", help="play as a program bot")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    if args.stdio:
        run_stdio(RandomBot)
        return
    if not args.token:
        parser.error("--token is required to connect to a gateway (or play with --stdio)")
    # The class, not an instance: each (game, seat) gets a fresh, freshly seeded RandomBot.
    try:
        run(RandomBot, args.target, args.token, max_games=args.games)
    except ArenaError as error:  # a refused (or rotated) token: one line, no traceback
        sys.exit(f"random_bot: {error}")


if __name__ == "__main__":
    main()
