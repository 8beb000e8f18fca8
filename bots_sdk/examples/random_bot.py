"""A complete bot for both Caper editions and Age of Thieves: plays a random legal action,
preferring (in Caper) to play a card over discarding one or passing.

python -m bots_sdk.examples.random_bot --target localhost:50051 --token $TOKEN
"""

from __future__ import annotations

import argparse
import logging
import random
from collections.abc import Sequence

from bots_sdk import ActionKind, Bot, EuropeActionKind, GameAction, Observation, run

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
    parser.add_argument("--token", required=True)
    parser.add_argument("--games", type=int, default=None, help="stop after this many games")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    # The class, not an instance: each (game, seat) gets a fresh, freshly seeded RandomBot.
    run(RandomBot, args.target, args.token, max_games=args.games)


if __name__ == "__main__":
    main()
