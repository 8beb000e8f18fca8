"""Every built-in bot plays only legal actions, in every city, and is stronger than the last."""

from __future__ import annotations

import random

import pytest

from arena.bots.base import Bot
from arena.bots.greedy import GreedyBot
from arena.bots.random_bot import RandomBot
from arena.bots.search import SearchBot
from arena.games.caper import CAPER
from arena.play.evaluate import duplicate_match

CITIES = ("paris", "rome", "london")


def play_checked(city: str, seed: int, bots: tuple[Bot, Bot]) -> int:
    """Play one game, checking every choice is one of the offered actions; the decisions made."""
    state = CAPER.create({"city": city}, seed)
    rngs = [random.Random(f"{seed}/{seat}") for seat in (0, 1)]
    decisions = 0
    while (seat := CAPER.current_player(state)) is not None:
        legal = CAPER.legal_actions(state)
        action = bots[seat].choose(CAPER, CAPER.observation(state, seat), legal, rngs[seat])
        assert action in legal, f"{bots[seat].name} chose {action!r}"
        state = CAPER.apply(state, action, seat)
        decisions += 1
    return decisions


@pytest.mark.parametrize("city", CITIES)
def test_bots_play_only_legal_actions(city: str) -> None:
    greedy, search = GreedyBot(), SearchBot(iterations=3)
    pairings: list[tuple[Bot, Bot]] = [(greedy, RandomBot()), (search, greedy), (greedy, search)]
    for seed, bots in enumerate(pairings):
        assert play_checked(city, seed, bots) >= 2 * (6 + 15)


def test_greedy_beats_random_in_duplicate_pairs() -> None:
    greedy, random_bot = GreedyBot(), RandomBot()
    wins = sum(
        duplicate_match(CAPER, {"city": CITIES[seed % 3]}, [seed], greedy, random_bot).pair_wins
        for seed in range(100, 120)
    )
    assert wins >= 17  # of 20; long runs win over 99% of pairs


def test_search_beats_random_in_duplicate_pairs() -> None:
    search = SearchBot(iterations=8)
    stats = duplicate_match(CAPER, {"city": "rome"}, range(200, 210), search, RandomBot())
    assert stats.pair_wins >= 8
