"""The Python SDK plays Age of Thieves: the conformance kit deals 2-, 3- and 4-player games with
the bot in every seat in turn, the bot gets the typed observation and actions rebuilt from the
wire (its own hand and plan, never another thief's), and an illegal action is caught."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bots_sdk import AgeOfThievesAction, AgeOfThievesObservation, GameAction, Observation
from bots_sdk.testing import check_bot
from tests.bots_sdk.bots import FirstBot


class ThievesBot(FirstBot):
    """A random legal action (seeded by its seat), checking each view it is given."""

    games = ("age-of-thieves",)
    deterministic = False

    def act(self, observation: Observation, legal: Sequence[GameAction]) -> GameAction:
        self.calls += 1
        assert isinstance(observation, AgeOfThievesObservation)
        view = observation.to_json()
        assert view["to_move"] == observation.seat
        assert view["options"] == [str(action) for action in legal]  # its own options
        for seat, thief in enumerate(view["thieves"]):
            if seat != observation.seat:  # 22.7: nobody else's pool or spent tiles
                assert thief["pool"] is None and thief["spent"] is None
        assert all(isinstance(action, AgeOfThievesAction) for action in legal)
        return random.Random(f"{observation.seat}/{view['round']}/{len(legal)}").choice(legal)


def test_the_kit_plays_age_of_thieves_for_2_3_and_4_thieves_in_every_seat() -> None:
    bot = ThievesBot()
    report = check_bot(bot, games=27)
    assert report.ok, str(report)
    seats = {(g.config.get("players", 2), g.seat) for g in bot.started}
    every = {(players, seat) for players in (2, 3, 4) for seat in range(players)}
    assert seats == every
    assert {g.game for g in bot.started} == {"age-of-thieves"}
    assert {g.role for g in bot.started} == {"player"}
    assert len(bot.ended) == 27 and bot.calls > 27 * 20


def test_a_deterministic_thief_passes_the_replay() -> None:
    class First(FirstBot):
        games = ("age-of-thieves",)

    report = check_bot(First, games=3)
    assert report.ok and any("deterministic" in line for line in report.passed), str(report)


def test_an_illegal_age_of_thieves_action_is_caught() -> None:
    class Lost(FirstBot):
        games = ("age-of-thieves",)
        deterministic = False

        def act(self, observation: Observation, legal: Sequence[GameAction]) -> GameAction:
            return AgeOfThievesAction("step", "X99")  # no such space

    report = check_bot(Lost, games=1)
    assert any("illegal action step X99" in line for line in report.failures), str(report)
