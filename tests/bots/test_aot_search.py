"""The Age of Thieves search (rules docs/rules/age-of-thieves.md): its static evaluation follows
section 19, it weighs Sneak against Sprint and end spaces against each other, and a movement
keeps the end space it chose."""

from __future__ import annotations

import random

from arena.bench.aot_targets import duplicate_pairs
from arena.bots import aot_search
from arena.bots.aot_greedy import towards
from arena.bots.greedy import GreedyBot
from arena.games.age_of_thieves.game import AGE_OF_THIEVES as GAME
from arena.games.age_of_thieves.state import MOVE, Action, State, Status, replace
from tests.bots.test_aot_ways import alarm_in_the_west


def first_prompt(name: str, seed: int = 3) -> State:
    """The first `name` decision with several options in a greedy four-player game."""
    state, bot, rng = GAME.create({"players": 4}, seed), GreedyBot(), random.Random(seed)
    while state.prompt is None or state.prompt.name != name or len(state.prompt.options) < 2:
        seat = GAME.current_player(state)
        assert seat is not None
        legal = GAME.legal_actions(state)
        state = GAME.apply(state, bot.choose(GAME, GAME.observation(state, seat), legal, rng))
    return state


def test_standing_follows_section_19() -> None:
    state, seat = alarm_in_the_west(guards=("E34",))
    on_board = aot_search.standing(state, seat)
    left = aot_search.standing(state.with_thief(seat, space="", escaped=(5, 1)), seat)
    carrying = aot_search.standing(state.with_thief(seat, ej=True), seat)
    assert left > on_board and carrying > on_board
    too_far = state.with_thief(seat, space="E34", ej=True)
    assert aot_search.standing(replace(too_far, alarm=()), seat) < carrying


def test_a_finished_game_scores_its_result_and_everybody_losing_is_a_loss() -> None:
    state, seat = alarm_in_the_west(guards=("E34",))
    assert aot_search.value(replace(state, over=True, winner=seat), seat) == 1.0
    assert aot_search.value(replace(state, over=True, winner=-1), seat) == -1.0


def test_choosing_the_move_the_search_weighs_sneak_against_sprint() -> None:
    state = first_prompt("turn")
    assert state.prompt is not None
    seat, options = state.prompt.seat, set(state.prompt.options)
    sneak, sprint = Action("sneak", MOVE), Action("sprint", MOVE)
    assert {sneak, sprint} <= options
    assert aot_search._alternatives(state, seat, sneak, None) == [sprint]
    assert aot_search._alternatives(state, seat, sprint, None) == [sneak]


def test_a_movement_keeps_the_end_space_the_search_chose() -> None:
    state = first_prompt("move")
    assert state.prompt is not None
    seat, points = state.prompt.seat, state.prompt.task.n
    legal = GAME.legal_actions(state)
    obs = GAME.observation(state, seat)
    routes: aot_search.Routes = {}
    aot_search.choose(obs, legal, random.Random(1), 4, 100.0, {}, routes)
    assert routes[seat][:2] == (state.round, state.actions_done)  # chosen once a movement
    for end in ("", *(a.arg for a in legal if a.kind == "step")):
        routes[seat] = (state.round, state.actions_done, end)
        chosen = aot_search.choose(obs, legal, random.Random(1), 4, 100.0, {}, routes)
        if end:
            assert chosen == towards(state, seat, legal, points, end) == Action("step", end)


def test_duplicate_pairs_deal_each_pair_twice_with_the_seats_swapped() -> None:
    pairs = duplicate_pairs("greedy", "random", pairs=3, seed=11)
    assert pairs.won + pairs.tied + pairs.lost == 3
    assert pairs.won >= 1 and pairs.lost == 0  # random never leaves the city on purpose
    assert pairs.hero_cpu > 0.0


def test_the_alarm_counts_the_rounds_left_for_the_evaluation() -> None:
    state, seat = alarm_in_the_west(guards=("E34",))
    assert state.status is Status.ALARM
    near = state.with_thief(seat, ej=True)
    assert aot_search.standing(replace(near, alarm=()), seat) == aot_search.standing(near, seat)


def test_the_bench_plays_duplicate_pairs_when_asked() -> None:
    from click.testing import CliRunner

    from arena.cli import main

    args = ["bench", "aot", "--duplicate", "--games", "2", "greedy", "random"]
    done = CliRunner().invoke(main, args)
    assert done.exit_code == 0, done.output
    assert "1 duplicate pairs (2 games): greedy wins 100.0% of" in " ".join(done.output.split())
