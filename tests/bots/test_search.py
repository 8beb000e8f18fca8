"""SearchBot: budgets, reproducibility and sensible endgame play."""

from __future__ import annotations

import random
import time

import pytest

from arena.bots.greedy import GreedyBot
from arena.bots.search import SearchBot
from arena.games.caper import CAPER, State
from arena.games.caper.scenario import scenario
from arena.play.local import play_game


def midgame(seed: int = 4) -> State:
    """A state early in the second Gear round, reached by greedy play."""
    state = CAPER.create({"city": "paris"}, seed)
    bot, rng = GreedyBot(), random.Random(seed)
    while state.round < 3:
        seat = state.to_move
        legal = CAPER.legal_actions(state)
        state = CAPER.apply(state, bot.choose(CAPER, CAPER.observation(state, seat), legal, rng))
    return state


def choose(bot: SearchBot, state: State, seed: int) -> str:
    legal = CAPER.legal_actions(state)
    obs = CAPER.observation(state, state.to_move)
    action = bot.choose(CAPER, obs, legal, random.Random(seed))
    assert action in legal
    return CAPER.action_text(action)


def test_an_iteration_budget_makes_the_choice_reproducible() -> None:
    state = midgame()
    choices = {choose(SearchBot(iterations=40), state, seed=11) for _ in range(3)}
    assert len(choices) == 1


def test_whole_games_replay_exactly_with_an_iteration_budget() -> None:
    bots = (SearchBot(iterations=3), GreedyBot())
    first = play_game(CAPER, {"city": "london"}, 5, bots)
    again = play_game(CAPER, {"city": "london"}, 5, bots)
    assert first.record.actions == again.record.actions  # the meta holds timings: not compared
    assert first.result == again.result


def test_a_time_budget_is_kept() -> None:
    state = midgame()
    started = time.perf_counter()
    choose(SearchBot(budget_ms=30), state, seed=1)
    # Generous slack: the machine may be busy, but the search must not run on and on.
    assert (time.perf_counter() - started) * 1000 < 30 + 150


def test_a_single_legal_action_is_returned_at_once() -> None:
    state = scenario(round=5, hands=(["The Dame"], ["The Mime"]))
    legal = CAPER.legal_actions(state)[:1]
    rng = random.Random(3)
    before = rng.getstate()
    bot = SearchBot(budget_ms=10_000)
    assert bot.choose(CAPER, CAPER.observation(state, 0), legal, rng) == legal[0]
    assert rng.getstate() == before


def test_takes_the_location_on_the_last_turn() -> None:
    # Mint's last play of the game: a Disguise at the Chapel wins it, nothing else scores.
    state = scenario(
        round=6,
        hands=(["Helping Hand", "Grappling Gun"], ["Simple Disguise", "Skeleton Key"]),
        board={
            0: {0: [["The Dame", "Simple Disguise", "Simple Disguise"]]},
            1: {0: [["The Banker"]], 2: [["The Bon Vivant"]]},
        },
    )
    assert choose(SearchBot(iterations=60), state, seed=2) == "gear Simple Disguise at 2/0"


@pytest.mark.parametrize("kwargs", [{"budget_ms": 0}, {"budget_ms": -1}, {"iterations": 0}])
def test_an_empty_budget_is_refused(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="budget"):
        SearchBot(**kwargs)  # type: ignore[arg-type]


def test_at_least_one_candidate_is_needed() -> None:
    with pytest.raises(ValueError, match="candidate"):
        SearchBot(candidates=0)


def test_the_name_shows_a_non_default_budget() -> None:
    assert SearchBot().name == "search"
    assert SearchBot(budget_ms=50).name == "search@50"
    assert SearchBot(iterations=200).name == "search#200"
