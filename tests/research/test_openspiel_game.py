"""The OpenSpiel registration: pyspiel's own checks and an OpenSpiel algorithm play our games."""

from __future__ import annotations

import json
import pickle
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from arena.games.api import ConfigError
from arena.research.openspiel_game import ArenaGame, ArenaState, register
from arena.research.variants import Variant, all_variants

VARIANTS = all_variants()
NAMES = register()


def _name(chosen: Variant) -> str:
    settings = ",".join(f"{key}={value}" for key, value in chosen.config)
    return f"arena_{chosen.game_id.replace('-', '_')}({settings})"


def _dealt(game: pyspiel.Game, deal: int) -> ArenaState:
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 65_536
    state.apply_action(deal)
    assert isinstance(state, ArenaState)
    return state


def test_register_names_every_game_once() -> None:
    assert register() == NAMES == ["arena_caper", "arena_caper_europe", "arena_age_of_thieves"]
    assert set(NAMES) <= set(pyspiel.registered_names())


@pytest.mark.parametrize("chosen", VARIANTS, ids=str)
def test_pyspiel_random_simulation_checks_pass(chosen: Variant) -> None:
    """OpenSpiel's C++ RandomSimTest: legal actions and chance outcomes, clones, returns,
    observation and information-state strings and tensors, serialisation, at every step of
    random games."""
    game = pyspiel.load_game(_name(chosen))
    assert game.num_players() == chosen.players or chosen.game_id == "caper-europe"
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(
    "name", ["arena_caper(players=3)", "arena_caper_europe", "arena_age_of_thieves(players=4)"]
)
def test_a_deal_is_the_engines_game_and_views_are_the_seats_own(name: str) -> None:
    game = pyspiel.load_game(name)
    assert isinstance(game, ArenaGame)
    state = _dealt(game, 7)
    engine = game.variant.game
    assert state.engine == engine.create(game.variant.settings, 7)
    for seat in range(game.num_players()):
        view = engine.observation(state.engine, seat).to_json()
        assert json.loads(state.information_state_string(seat)) == view
        assert state.observation_string(seat) == state.information_state_string(seat)
        tensor = np.asarray(state.observation_tensor(seat))
        assert tensor.shape == (8192,) and tensor.any()


@pytest.mark.parametrize(
    "name",
    ["arena_caper(players=4)", "arena_caper_europe(city=rome)", "arena_age_of_thieves(players=3)"],
)
def test_resampling_keeps_the_players_information_state_and_redeals_the_rest(name: str) -> None:
    game = pyspiel.load_game(name)
    state, rng, changed = _dealt(game, 3), random.Random(0), 0
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    while not state.is_terminal():
        player = state.current_player()
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.legal_actions() == state.legal_actions()
        changed += other.engine != state.engine
        state.apply_action(rng.choice(state.legal_actions()))
    assert changed > 10  # what the player cannot see really was dealt anew


def test_a_state_serialises_as_its_deal_and_actions() -> None:
    game = pyspiel.load_game("arena_age_of_thieves(players=3)")
    state, rng = _dealt(game, 12), random.Random(2)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    loaded = game.deserialize_state(state.serialize())
    assert isinstance(loaded, ArenaState)
    assert loaded.engine == state.engine and loaded.history() == state.history()
    assert pickle.loads(pickle.dumps(state)).engine == state.engine
    sampled = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    with pytest.raises(pickle.PicklingError, match="a state sampled for one seat cannot be"):
        sampled.serialize()


def test_is_mcts_plays_whole_games() -> None:
    """OpenSpiel's IS-MCTS (random rollouts, determinised by `resample_from_infostate`) plays
    every decision of one seat against random play, in both editions."""
    for name in ("arena_caper", "arena_caper_europe(city=barcelona)"):
        game = pyspiel.load_game(name)
        rng = np.random.RandomState(1)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=20, random_state=rng)
        state, decisions = _dealt(game, 9), 0
        while not state.is_terminal():
            if state.current_player() == 0:
                action = bot.step(state)
                decisions += 1
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
        assert decisions >= 20 and sorted(state.returns()) == [-1.0, 1.0]


def test_bad_parameters_name_the_problem() -> None:
    with pytest.raises(ConfigError, match="unknown city 'atlantis'"):
        pyspiel.load_game("arena_caper(city=atlantis)")
    with pytest.raises(ValueError, match="deals must be at least 1"):
        pyspiel.load_game("arena_caper(deals=0)")
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'players'"):
        pyspiel.load_game("arena_caper_europe(players=3)")


def test_a_smaller_deal_space_is_a_parameter() -> None:
    game = pyspiel.load_game("arena_age_of_thieves(deals=4)")
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(deal, 0.25) for deal in range(4)]
    assert game.max_chance_outcomes() == 4
