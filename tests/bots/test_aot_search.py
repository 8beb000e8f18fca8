"""The Age of Thieves search (rules docs/rules/age-of-thieves.md): its static evaluation follows
section 19, it weighs Sneak against Sprint and end spaces against each other, and a movement
keeps the end space it chose."""

from __future__ import annotations

import random

import pytest

from arena.bench.aot_targets import Pairs, duplicate_pairs, pair_row
from arena.bots import aot_search, aot_search_value
from arena.bots.aot_greedy import ends, towards
from arena.bots.aot_ways import goal
from arena.bots.greedy import GreedyBot
from arena.games.age_of_thieves.game import AGE_OF_THIEVES as GAME
from arena.games.age_of_thieves.sampling import sample_state
from arena.games.age_of_thieves.state import MOVE, Action, State, Status, replace
from tests.bots.test_aot_ways import alarm_in_the_west


def first_prompt(name: str, seed: int = 3, players: int = 4) -> State:
    """The first `name` decision with several options in a greedy game."""
    return next_prompt(GAME.create({"players": players}, seed), name, random.Random(seed))


def next_prompt(state: State, name: str, rng: random.Random) -> State:
    """The next `name` decision with several options, greedy playing until then."""
    bot = GreedyBot()
    state = _after(state, bot, rng)
    while not state.over and (state.prompt is None or state.prompt.name != name):
        state = _after(state, bot, rng)
    return state


def _after(state: State, bot: GreedyBot, rng: random.Random) -> State:
    """One greedy decision on."""
    seat = GAME.current_player(state)
    assert seat is not None
    legal = GAME.legal_actions(state)
    return GAME.apply(state, bot.choose(GAME, GAME.observation(state, seat), legal, rng))


def detour(players: int) -> tuple[State, int, str]:
    """The first movement of a greedy game where the thief heads for a loose jewel rather than
    his goal, and the best end space towards his goal is none of greedy's first candidates:
    the state, the seat and that end space."""
    for seed in range(20):
        state, rng = GAME.create({"players": players}, seed), random.Random(seed)
        while not state.over:
            state = next_prompt(state, "move", rng)
            if state.prompt is None:
                break
            seat, here = state.prompt.seat, state.thief(state.prompt.seat).space
            points, aim = state.prompt.task.n, goal(state, seat)
            target, scored = ends(state, seat, points, here)
            if aim in ("", target):
                continue
            direct = aot_search._ends_towards(state, seat, points, here, aim)[0][1]
            if direct not in {space for _, space in scored[: aot_search.CANDIDATES]}:
                return state, seat, direct
    raise AssertionError("no such movement in 20 greedy games")


def test_standing_follows_section_19() -> None:
    state, seat = alarm_in_the_west(guards=("E34",))
    on_board = aot_search_value.standing(state, seat)
    left = aot_search_value.standing(state.with_thief(seat, space="", escaped=(5, 1)), seat)
    carrying = aot_search_value.standing(state.with_thief(seat, ej=True), seat)
    assert left > on_board and carrying > on_board
    too_far = state.with_thief(seat, space="E34", ej=True)
    assert aot_search_value.standing(replace(too_far, alarm=()), seat) < carrying


def test_a_finished_game_scores_its_result_and_everybody_losing_is_a_loss() -> None:
    state, seat = alarm_in_the_west(guards=("E34",))
    assert aot_search_value.value(replace(state, over=True, winner=seat), seat) == 1.0
    assert aot_search_value.value(replace(state, over=True, winner=-1), seat) == -1.0


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
    assert pairs.score == (pairs.won + pairs.tied / 2) / 3


def test_a_tied_pair_scores_half() -> None:
    split = Pairs("search", "greedy", pairs=4, won=1, tied=2, lost=1, hero_cpu=1.0)
    assert split.score == 0.5
    assert split.score_error == pytest.approx(0.2041, abs=1e-4)  # sd 0.408 over 4 pairs
    assert "pair score 50.0% ± 20.4% (Elo +0)" in split.line()


def test_the_two_player_target_is_judged_on_the_pair_score_not_the_pairs_won() -> None:
    mostly_tied = Pairs("search", "greedy", pairs=100, won=30, tied=65, lost=5, hero_cpu=1.0)
    row = pair_row(mostly_tied)
    assert row.met and row.figure.startswith("62.5% ± ")  # 30% of the pairs won
    assert "pairs won 30.0%, tied 65, lost 5" in row.figure
    even = Pairs("search", "greedy", pairs=100, won=35, tied=30, lost=35, hero_cpu=1.0)
    assert not pair_row(even).met  # more pairs won, but no stronger than its opponent


def test_the_alarm_counts_the_rounds_left_for_the_evaluation() -> None:
    state, seat = alarm_in_the_west(guards=("E34",))
    assert state.status is Status.ALARM
    near = state.with_thief(seat, ej=True)
    assert aot_search_value.standing(replace(near, alarm=()), seat) == aot_search_value.standing(
        near, seat
    )


def test_the_bench_plays_duplicate_pairs_when_asked() -> None:
    from click.testing import CliRunner

    from arena.cli import main

    args = ["bench", "aot", "--duplicate", "--games", "2", "greedy", "random"]
    done = CliRunner().invoke(main, args)
    assert done.exit_code == 0, done.output
    assert "1 duplicate pairs (2 games): greedy wins 100.0% of" in " ".join(done.output.split())


def test_two_players_also_weigh_the_ways_that_skip_a_loose_jewel() -> None:
    state, seat, direct = detour(players=2)
    assert direct in {a.arg for a in aot_search._alternatives(state, seat, Action("stop"), None)}
    four, seat, direct = detour(players=4)
    assert four.prompt is not None
    _, scored = ends(four, seat, four.prompt.task.n, four.thief(seat).space)
    arms = {a.arg for a in aot_search._alternatives(four, seat, Action("stop"), None)}
    assert arms == {space for _, space in scored[1 : aot_search.CANDIDATES]}
    assert direct not in arms


def test_another_arm_replaces_greedys_only_when_its_gain_clears_the_noise() -> None:
    steady, noisy = aot_search._Paired(2), aot_search._Paired(2)
    for k in range(8):
        steady.add([0.0, 0.1])  # a small gain on every deal
        noisy.add([0.0, 1.0 if k % 2 else -0.8])  # a larger mean gain, but as often a loss
    assert steady.best() == 1 and noisy.best() == 0
    alone = aot_search._Paired(3)
    alone.add([0.0, 0.5, -1.0])
    assert alone.best() == 0  # one deal is no evidence


def test_every_arm_is_played_on_the_same_deal_dice_and_choices() -> None:
    state = first_prompt("turn", players=2)
    assert state.prompt is not None
    seat = state.prompt.seat
    deal = sample_state(GAME.observation(state, seat), random.Random(4))
    for arm in state.prompt.options[:2]:
        once = aot_search._simulate(deal, seat, arm, 99, None)
        assert aot_search._simulate(deal, seat, arm, 99, None) == once
