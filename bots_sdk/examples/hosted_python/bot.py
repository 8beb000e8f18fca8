"""A hosted Python bot: the arena runs this file in its sandbox (`arena bot submit NAME .`), and
the SDK's `run_stdio` plays the Bot over stdin and stdout, with no change to its code from a bot
that connects to a gateway. The arena lends its Python runtime the SDK: only this folder is
submitted.

It plays the card that scores soonest by a crude rule: the first legal action that plays a card
(not a discard or a pass), else the first legal action.
"""

from __future__ import annotations

from collections.abc import Sequence

from bots_sdk import ActionKind, Bot, EuropeActionKind, GameAction, Observation
from bots_sdk.stdio import run_stdio

NOT_PLAYING = (ActionKind.DISCARD, ActionKind.PASS, EuropeActionKind.DISCARD)


class FirstPlayBot(Bot):
    name, version = "hosted-first-play", "1.0"
    games = ("caper", "caper-europe", "age-of-thieves")

    def act(self, observation: Observation, legal: Sequence[GameAction]) -> GameAction:
        plays = [a for a in legal if all(a.kind is not kind for kind in NOT_PLAYING)]
        return (plays or list(legal))[0]


if __name__ == "__main__":
    run_stdio(FirstPlayBot)
