"""The plans the Age of Thieves search weighs at the planning step (rules
docs/rules/age-of-thieves.md, sections 7 and 8): each is legal, greedy's comes first, and a card
planned against the Emperor's Jewel's holder is played at him."""

from __future__ import annotations

import random

from arena.bots import aot_plans, aot_search
from arena.bots.aot_greedy import policy
from arena.games.age_of_thieves.engine import play
from arena.games.age_of_thieves.game import AGE_OF_THIEVES as GAME
from arena.games.age_of_thieves.planning import options
from arena.games.age_of_thieves.queries import board
from arena.games.age_of_thieves.state import MOVE, Action, State, replace
from tests.bots.test_aot_search import first_prompt


def planning(players: int = 2) -> tuple[State, int]:
    """A seat's first planning step in a greedy game, its AP still all to spend."""
    state = first_prompt("plan", seed=5, players=players)
    assert state.prompt is not None and not state.thief(state.prompt.seat).plan
    return state, state.prompt.seat


def played(state: State, seat: int, plan: aot_plans.Plan) -> State:
    for step in plan.steps:
        state = play(state, step, seat)
    return state


def test_every_plan_is_legal_and_greedys_comes_first() -> None:
    state, seat = planning()
    plans = aot_plans.plans(state, seat, random.Random(1), None)
    assert len(plans) >= 2 and len({p.steps for p in plans}) == len(plans)
    greedy = state
    while greedy.prompt is not None and greedy.prompt.seat == seat and greedy.prompt.name == "plan":
        greedy = play(greedy, policy(greedy, random.Random(1)), seat)
    assert played(state, seat, plans[0]).thief(seat).plan == greedy.thief(seat).plan
    for plan in plans:
        after = played(state, seat, plan)  # `play` refuses an illegal step
        assert after.thief(seat).planned
    everything = played(state, seat, plans[1]).thief(seat)
    assert [p.card for p in everything.plan] == [MOVE] and everything.pool == 0


def holding_the_ej(state: State, seat: int) -> tuple[State, int]:
    """The other thief next to the seat's, carrying the EJ; the seat holding a Fishing Rod."""
    victim = 1 - seat
    here = state.thief(seat).space
    beside = next(s for s in board().neighbours(here) if s in board().spaces)
    state = replace(state, jewels=tuple(j for j in state.jewels if j[1] != "ej"))
    state = state.with_thief(victim, ej=True, space=beside)
    state = state.with_thief(seat, hand=(*state.thief(seat).hand, aot_plans.ROD))
    assert state.prompt is not None
    steps = tuple(options(state.thief(seat), state.specials))  # the Rod among them
    return replace(state, prompt=state.prompt._replace(options=steps)), victim


def test_a_rod_in_hand_is_planned_before_and_after_move_against_the_ej_holder() -> None:
    state, seat = planning()
    state, victim = holding_the_ej(state, seat)
    plans = aot_plans.plans(state, seat, random.Random(1), None)
    strikes = [p for p in plans if p.card == aot_plans.ROD]
    assert [p.victim for p in strikes] == [victim, victim]
    assert [p.steps[0] for p in strikes] == [Action("plan", aot_plans.ROD), Action("plan", MOVE)]


def test_a_rod_planned_first_takes_the_ej_from_its_holder() -> None:
    state, seat = planning()
    state, victim = holding_the_ej(state, seat)
    plan = next(
        p
        for p in aot_plans.plans(state, seat, random.Random(1), None)
        if p.card == aot_plans.ROD and p.steps[0].arg == aot_plans.ROD
    )
    rng, now = random.Random(2), state.round
    while state.round == now and not state.thief(seat).ej and state.prompt is not None:
        prompt = state.prompt
        choice = aot_plans.follow(state, seat, plan) or policy(state, rng)
        state = play(state, choice, prompt.seat)
    assert state.thief(seat).ej and not state.thief(victim).ej


def test_a_planning_search_with_iterations_is_deterministic_and_its_plan_is_followed() -> None:
    state, seat = planning()
    obs, legal = GAME.observation(state, seat), GAME.legal_actions(state)
    chosen = []
    for _ in range(2):
        memo: aot_plans.Plans = {}
        chosen.append(aot_search.choose(obs, legal, random.Random(3), 8, 100.0, {}, {}, memo))
        assert memo[seat][0] == state.round and memo[seat][1].steps[0] == chosen[-1]
    assert chosen[0] == chosen[1]
    plan = memo[seat][1]
    state = play(state, chosen[0], seat)
    assert state.prompt is not None and state.prompt.name == "plan"
    obs, legal = GAME.observation(state, seat), GAME.legal_actions(state)
    later = aot_search.choose(obs, legal, random.Random(4), 8, 100.0, {}, {}, memo)
    assert later == plan.steps[1]


def test_three_players_keep_greedys_plan_and_four_search_it() -> None:
    for players, searched in ((3, False), (4, True)):
        state, seat = planning(players=players)
        obs, legal = GAME.observation(state, seat), GAME.legal_actions(state)
        memo: aot_plans.Plans = {}
        chosen = aot_search.choose(obs, legal, random.Random(3), 8, 100.0, {}, {}, memo)
        assert bool(memo) is searched
        if not searched:
            assert chosen == policy(state, random.Random(3))
