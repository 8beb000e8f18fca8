"""The built-in bots play Caper: Europe: only legal actions (token returns included), sensible
one-ply choices on Europe's scoring, reproducible search, and greedy beating random."""

from __future__ import annotations

import random

import pytest

from arena.bots import make_bot
from arena.bots.base import Bot
from arena.bots.greedy import GreedyBot
from arena.bots.heuristic import evaluate
from arena.bots.random_bot import RandomBot
from arena.bots.search import SearchBot
from arena.games.caper_europe import CAPER_EUROPE, State
from arena.games.caper_europe.scenario import scenario
from arena.play.evaluate import duplicate_match
from arena.play.local import play_game

CITIES = ("paris", "barcelona", "rome", "london")


def play_checked(city: str, seed: int, bots: tuple[Bot, Bot]) -> int:
    state = CAPER_EUROPE.create({"city": city}, seed)
    rngs = [random.Random(f"{seed}/{seat}") for seat in (0, 1)]
    decisions = 0
    while (seat := CAPER_EUROPE.current_player(state)) is not None:
        legal = CAPER_EUROPE.legal_actions(state)
        obs = CAPER_EUROPE.observation(state, seat)
        action = bots[seat].choose(CAPER_EUROPE, obs, legal, rngs[seat])
        assert action in legal, f"{bots[seat].name} chose {action!r}"
        state = CAPER_EUROPE.apply(state, action, seat)
        decisions += 1
    return decisions


@pytest.mark.parametrize("city", CITIES)
def test_bots_play_only_legal_actions(city: str) -> None:
    greedy, search = GreedyBot(), SearchBot(iterations=3)
    pairings: list[tuple[Bot, Bot]] = [(greedy, RandomBot()), (search, greedy), (greedy, search)]
    for seed, bots in enumerate(pairings):
        assert play_checked(city, seed, bots) >= 2 * (6 + 15)


def greedy_choice(state: State, seed: int = 0) -> str:
    seat = state.to_move
    legal = CAPER_EUROPE.legal_actions(state)
    obs = CAPER_EUROPE.observation(state, seat)
    return CAPER_EUROPE.action_text(
        GreedyBot().choose(CAPER_EUROPE, obs, legal, random.Random(seed))
    )


def test_greedy_pulls_a_marker_off_the_middle_where_it_wins_the_most() -> None:
    # Seat 0 has a Thief at the Museum (5 + 1 per green) and at the Casino (3 + 2 per Thief).
    state = scenario(
        round=2,
        to_move=0,
        locations=("museum", "bank", "casino"),
        crews={
            0: {0: [["mime", "telescopic_hand"]], 2: [["dame"]]},
            1: {0: [["banker"]], 2: [["colonel"]]},
        },
        hands=(("disguise_kit", "sound_dish"), ("skeleton_key", "skeleton_key")),
    )
    for seed in range(3):
        assert greedy_choice(state, seed) == "gear disguise_kit at 0/0"


def test_greedy_burns_the_gear_that_decides_a_location() -> None:
    crews = {0: {0: [["mime"]]}, 1: {0: [["banker", "skeleton_key"], ["colonel", "disguise_kit"]]}}
    state = scenario(
        round=2,
        to_move=0,
        crews=crews,
        markers=(-1, 0, 0),
        coins=(2, 2),
        hands=(("blazeblaster", "sound_dish"), ("skeleton_key", "skeleton_key")),
    )
    assert greedy_choice(state) == "gear blazeblaster at 0/0 burn 1"  # back to the middle


def test_the_evaluation_is_europes_score_margin_plus_coins() -> None:
    state = scenario(round=7, crews={0: {0: [["smuggler", "sound_dish"]]}}, coins=(2, 0))
    assert evaluate(state, 0) == pytest.approx(1 + 0.05 * 2)
    assert evaluate(state, 1) == pytest.approx(-1 - 0.05 * 2)


def test_the_search_replays_exactly_with_an_iteration_budget() -> None:
    bots = (SearchBot(iterations=3), GreedyBot())
    first = play_game(CAPER_EUROPE, {"city": "rome"}, 5, bots)
    again = play_game(CAPER_EUROPE, {"city": "rome"}, 5, bots)
    assert first.record.actions == again.record.actions
    assert first.result == again.result


def test_greedy_beats_random_in_duplicate_pairs() -> None:
    wins = sum(
        duplicate_match(
            CAPER_EUROPE, {"city": CITIES[seed % 4]}, [seed], GreedyBot(), RandomBot()
        ).pair_wins
        for seed in range(200, 212)
    )
    assert wins >= 11  # of 12; long runs win every pair


def test_named_bots_play_europe() -> None:
    played = play_game(
        CAPER_EUROPE, {"city": "barcelona"}, 3, (make_bot("search#2"), make_bot("random"))
    )
    assert played.record.game == "caper-europe" and len(played.result.scores) == 2
