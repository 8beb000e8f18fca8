"""The PettingZoo AEC environment of every game and variant."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from arena.games.api import ConfigError
from arena.research.hidden import RESAMPLE
from arena.research.pettingzoo_env import ArenaAECEnv, env, raw_env
from arena.research.variants import Variant, all_variants, returns

VARIANTS = all_variants()
pytestmark = pytest.mark.filterwarnings(
    # PettingZoo's own classic games (dict observations with an action mask) warn the same
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
)


def _play(game: ArenaAECEnv, rng: np.random.Generator) -> list[int]:
    """A whole game of legal random actions; the actions taken."""
    taken = []
    for agent in game.agent_iter():
        obs, _, termination, truncation, _ = game.last()
        if termination or truncation:
            game.step(None)
            continue
        assert game.seat(agent) == game.game.current_player(game.state)
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        taken.append(action)
        game.step(action)
    return taken


@pytest.mark.parametrize("chosen", VARIANTS, ids=str)
def test_pettingzoo_api_test_passes(chosen: Variant) -> None:
    api_test(env(chosen.game_id, None, **chosen.settings), num_cycles=1000)


@pytest.mark.parametrize("chosen", VARIANTS, ids=str)
def test_pettingzoo_seed_test_passes(chosen: Variant) -> None:
    seed_test(lambda: env(chosen.game_id, None, **chosen.settings), num_cycles=300)


@pytest.mark.parametrize("chosen", VARIANTS, ids=str)
def test_a_game_pays_what_the_engine_scored(chosen: Variant) -> None:
    game = raw_env(chosen.game_id, None, **chosen.settings)
    game.reset(seed=3)
    totals = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter():
        _, reward, termination, _, _ = game.last()
        totals[agent] += reward
        game.step(None if termination else _random_legal(game, agent))
    expected = returns(game.game, chosen.settings, game.game.result(game.state))
    assert list(totals.values()) == expected and not game.agents


def _random_legal(game: ArenaAECEnv, agent: str) -> int:
    return int(np.flatnonzero(game.observe(agent)["action_mask"])[0])


@pytest.mark.parametrize("game_id", ["caper", "caper-europe", "age-of-thieves"])
def test_reset_with_a_seed_deals_the_referees_game(game_id: str) -> None:
    """The engine owns randomness: reset(seed=s) starts game.create(config, s), and the same
    seed and actions replay the same game; reset() draws the next game from the last seed."""
    first, second = raw_env(game_id), raw_env(game_id)
    first.reset(seed=11)
    assert first.state == first.game.create({}, 11)
    actions = _play(first, np.random.default_rng(0))
    second.reset(seed=11)
    for action in actions:
        second.step(action)
    assert second.state == first.state
    first.reset(seed=11)
    first.reset()
    second.reset(seed=11)
    second.reset()
    assert first.state == second.state != second.game.create({}, 11)


@pytest.mark.parametrize("chosen", VARIANTS, ids=str)
def test_an_observation_is_the_same_whatever_the_seat_cannot_see(chosen: Variant) -> None:
    """No leaks: with every hidden card and deck order dealt anew (the engine's own resampler,
    as tests/protocol checks the codec), each seat's observation and mask are unchanged."""
    game, resample = raw_env(chosen.game_id, None, **chosen.settings), RESAMPLE[chosen.game_id]
    game.reset(seed=5)
    rng, changed, steps = random.Random(1), 0, 0
    while not game.game.is_terminal(game.state) and steps < 80:
        truth = game.state
        for seat, agent in enumerate(game.possible_agents):
            seen = game.observe(agent)
            game.state = other = resample(truth, seat, rng)
            _same(game.observe(agent), seen)
            changed += other != truth
            game.state = truth
        game.step(_random_legal(game, game.agent_selection))
        steps += 1
    assert changed > steps  # the hidden parts really were dealt anew


def _same(left: dict[str, Any], right: dict[str, Any]) -> None:
    assert np.array_equal(left["observation"], right["observation"])
    assert np.array_equal(left["action_mask"], right["action_mask"])


def test_observations_differ_between_seats_and_show_only_the_seats_hand() -> None:
    game = raw_env("caper", city="rome", players=4)
    game.reset(seed=2)
    views = [game.observation_json(agent) for agent in game.possible_agents]
    assert len({str(view) for view in views}) == 4
    vectors = [game.observe(agent)["observation"] for agent in game.possible_agents]
    assert not np.array_equal(vectors[0], vectors[1])
    mask = [game.observe(agent)["action_mask"].sum() for agent in game.possible_agents]
    assert mask[game.seat(game.agent_selection)] > 0 and sum(mask) == max(mask)


def test_an_illegal_or_malformed_action_is_a_clear_error() -> None:
    game = raw_env("caper")
    game.reset(seed=1)
    illegal = int(np.flatnonzero(game.observe(game.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=r"is not legal now: see the action_mask"):
        game.step(illegal)
    with pytest.raises(ValueError, match="outside 0-"):
        game.step(10**6)
    with pytest.raises(ValueError, match="an action is an int"):
        game.step("thief The Dame at 0")


def test_a_bad_setting_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown city 'atlantis'"):
        env("caper-europe", city="atlantis")
    with pytest.raises(ValueError, match="render_mode must be None or 'ansi'"):
        env("caper", render_mode="human")


def test_ansi_rendering_shows_the_table() -> None:
    game = raw_env("caper", render_mode="ansi")
    game.reset(seed=4)
    assert game.game.render(game.state) == game.render()
