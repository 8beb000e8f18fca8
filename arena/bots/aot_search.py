"""Determinized search (PIMC) for Age of Thieves over the choices that decide most games: how far
Move goes (Sneak or Sprint), where a movement ends and, with two players, the round's plan.
Greedy's rules of thumb play every other decision.

At the first step of each movement the search takes greedy's choice and the few end spaces
greedy ranks next (`aot_greedy.ends`), each a macro: walk there by a shortest way and stop; with
two players, when greedy detours for a loose jewel, also the best end spaces heading straight
for the goal (the race for the Emperor's Jewel decides most 2-player games). Choosing the Move
it weighs Sneak against Sprint. The arms are compared on common random numbers: each sample
deals the hidden part anew from the seat's observation (`sample_state`) and plays every arm on
that same deal, dice and rollout choices, so the arms differ only by the decision and a few
samples tell them apart. A rollout plays the arm and then greedy for every seat (the
benchmark's opponent, so an exact model of it) to the end of the round and `HORIZON` rounds
more, and scores the outcome statically (`aot_search_value`). Another arm replaces greedy's
choice only when its mean gain over greedy's, deal by deal, clears its noise. The chosen end
space is kept for the rest of the movement, so one movement costs one search.

With two or four players the seat's first planning step of a round weighs whole plans
(`aot_plans`) the same way, each a macro for the round (three players are not measured yet:
greedy's plan). The other thieves' plans are behind the screen: each deal has them plan anew
with greedy (`sample_state(..., open_plans=True)`). Those rollouts end with the round, since
what a plan changes is who acts first, and the chosen plan is kept for the round.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from arena.bots.aot_ends import STALL, scorer
from arena.bots.aot_greedy import Starts, ends, policy, towards
from arena.bots.aot_plans import Plan, Plans, follow, plans
from arena.bots.aot_search_value import value
from arena.bots.aot_ways import distance, goal, reachable
from arena.games.age_of_thieves.engine import play
from arena.games.age_of_thieves.observation import AgeOfThievesObservation
from arena.games.age_of_thieves.sampling import sample_state
from arena.games.age_of_thieves.state import MOVE, Action, State

CANDIDATES = 4  # greedy's end space and the next ones it ranks
# By players: end spaces heading straight for the goal when greedy detours for a loose jewel
# (two players race for the Emperor's Jewel; with more, loose jewels decide more winners)
DIRECT = {2: 2, 3: 0, 4: 0}
OVERRULE = 1.0  # how many standard errors another arm's paired gain must clear
END = "end"  # the kind of a macro arm: walk to its space and stop
# By players: of the move budget a searched movement spends (the rest are greedy and cheap;
# with two and four players the plans take their share)
SHARE = {2: 0.72, 3: 0.8, 4: 0.6}
HORIZON = {2: 2, 3: 0, 4: 0}  # rounds a rollout plays after the current one, by players
# By players: the share of a move's budget a searched plan spends (0: greedy's plan)
PLANNING = {2: 0.2, 3: 0.0, 4: 0.4}
PLAN_HORIZON = 0  # a plan's rollouts end with its round: its effect is the order of the moves

Arm = TypeVar("Arm")  # what a search weighs: an action or a whole plan

# seat: (round, resolution index, chosen end space; "" while greedy's choice is followed)
Routes = dict[int, tuple[int, int, str]]


def choose(
    obs: AgeOfThievesObservation,
    legal: Sequence[Action],
    rng: random.Random,
    iterations: int | None,
    budget_ms: float,
    starts: Starts | None = None,
    routes: Routes | None = None,
    planned: Plans | None = None,
) -> Action:
    """The searched choice: `iterations` rollouts if given (no clock read), else as many as fit
    in the decision's share of `budget_ms` (`SHARE`, `PLANNING`). `starts` is the greedy
    policy's memory of where movements began, `routes` the search's of where the current
    movement ends, `planned` the plan it chose for the round."""
    if len(legal) == 1:
        return legal[0]
    state = sample_state(obs, rng)
    prompt = state.prompt
    routes = {} if routes is None else routes
    planned = {} if planned is None else planned
    if PLANNING.get(state.players, 0.0):
        chosen = _planned(obs, state, legal, rng, iterations, budget_ms, starts, planned)
        if chosen is not None:
            return chosen
    first = policy(state, rng, starts)
    if prompt is None or prompt.name not in ("move", "turn"):
        return _legal(first, legal, rng)
    key = (state.round, state.actions_done)
    known = routes.get(obs.seat)
    if prompt.name == "move" and known is not None and known[:2] == key:
        if not known[2]:  # the movement goes on where it was headed
            return _legal(first, legal, rng)
        return _legal(towards(state, obs.seat, legal, prompt.task.n, known[2]), legal, rng)
    if first.kind in ("take", "steal"):  # grabs are never worse
        return _legal(first, legal, rng)
    arms = [first, *_alternatives(state, obs.seat, first, starts)]
    if prompt.name == "move":
        routes[obs.seat] = (*key, "")
    if len(arms) < 2:
        return _legal(first, legal, rng)
    share = SHARE.get(state.players, SHARE[4])
    chosen = _weigh(
        obs,
        arms,
        lambda deal, arm, seed: _simulate(deal, obs.seat, arm, seed, starts),
        rng,
        iterations,
        budget_ms * share,
    )
    if chosen.kind != END:
        return _legal(chosen, legal, rng)
    routes[obs.seat] = (*key, chosen.arg)
    return _legal(towards(state, obs.seat, legal, prompt.task.n, chosen.arg), legal, rng)


def _planned(
    obs: AgeOfThievesObservation,
    state: State,
    legal: Sequence[Action],
    rng: random.Random,
    iterations: int | None,
    budget_ms: float,
    starts: Starts | None,
    planned: Plans,
) -> Action | None:
    """At the round's first planning step, the searched plan's first step; later in the round
    what the plan chosen says; None where greedy's rules and the move searches decide."""
    known = planned.get(obs.seat)
    if known is not None and known[0] == state.round:
        scripted = follow(state, obs.seat, known[1])
        if scripted is not None and scripted in legal:
            return scripted
    prompt = state.prompt
    if prompt is None or prompt.name != "plan" or state.thief(obs.seat).plan:
        return None
    share = PLANNING.get(state.players, 0.0)
    plan = _plan(obs, state, rng, iterations, budget_ms * share, starts)
    planned[obs.seat] = (state.round, plan)
    return _legal(plan.steps[0], legal, rng)


def _plan(
    obs: AgeOfThievesObservation,
    state: State,
    rng: random.Random,
    iterations: int | None,
    budget_ms: float,
    starts: Starts | None,
) -> Plan:
    """The whole plan for the round, weighed as the end spaces are: greedy's unless another's
    paired gain clears its noise. The other seats' hidden plans are made anew on each deal."""
    arms = plans(state, obs.seat, rng, starts)
    if len(arms) < 2:
        return arms[0]
    return _weigh(
        obs,
        arms,
        lambda deal, plan, seed: _simulate_plan(deal, obs.seat, plan, seed, starts),
        rng,
        iterations,
        budget_ms,
        open_plans=True,
    )


def _weigh(
    obs: AgeOfThievesObservation,
    arms: Sequence[Arm],
    simulate: Callable[[State, Arm, int], float],
    rng: random.Random,
    iterations: int | None,
    budget_ms: float,
    open_plans: bool = False,
) -> Arm:
    """The arm chosen on common random numbers: each sample deals the hidden part anew and plays
    every arm on that deal with the same seed, `iterations` rollouts in all if given, else as
    many samples as fit in `budget_ms`; arm 0 (greedy's) unless another's gain clears its noise."""
    rounds = iterations and max(1, iterations // len(arms))
    budget: Iterable[int] = range(rounds) if rounds else _clock(budget_ms)
    paired = _Paired(len(arms))
    for _ in budget:
        deal, seed = sample_state(obs, rng, open_plans), rng.getrandbits(32)
        paired.add([simulate(deal, arm, seed) for arm in arms])
    return arms[paired.best()]


def _simulate_plan(state: State, seat: int, plan: Plan, seed: int, starts: Starts | None) -> float:
    """One rollout of a plan on a sampled deal: the seat plays it through the round (greedy
    where it says nothing), then greedy for everyone for the horizon's rounds."""
    now = state.round

    def scripted(state: State) -> Action | None:
        return follow(state, seat, plan) if state.round == now else None

    return value(_rollout(state, now + PLAN_HORIZON, seed, starts, scripted), seat)


def _alternatives(state: State, seat: int, first: Action, starts: Starts | None) -> list[Action]:
    """Other arms than greedy's choice: at a movement's first step, the end spaces greedy ranks
    next (macros `Action("end", space)`); choosing the Move, the other of Sneak and Sprint."""
    assert state.prompt is not None
    if state.prompt.name == "turn":
        pace = {Action("sneak", MOVE), Action("sprint", MOVE)}
        if first in pace and pace <= set(state.prompt.options):
            return list(pace - {first})
        return []
    here = state.thief(seat).space
    start = here if starts is None or seat not in starts else starts[seat][2]
    points = state.prompt.task.n
    target, scored = ends(state, seat, points, start)
    spaces = [space for _, space in scored[:CANDIDATES]]
    aim = goal(state, seat)
    if aim and aim != target:  # a loose jewel on the way: also the ways that skip it
        spaces += [
            space
            for _, space in _ends_towards(state, seat, points, start, aim)[
                : DIRECT.get(state.players, 0)
            ]
        ]
    return [Action(END, space) for space in dict.fromkeys(spaces[1:]) if space != spaces[0]]


def _ends_towards(
    state: State, seat: int, points: int, start: str, target: str
) -> list[tuple[float, str]]:
    """The end spaces a movement of `points` can reach, best first as greedy scores them, for
    heading to `target`."""
    reach = reachable(state, seat, state.thief(seat).space, points)
    score, before = scorer(state, seat, target), distance(start, target)
    return sorted((score(s) + (STALL if distance(s, target) >= before else 0.0), s) for s in reach)


def _legal(action: Action, legal: Sequence[Action], rng: random.Random) -> Action:
    return action if action in legal else legal[rng.randrange(len(legal))]


def _simulate(state: State, seat: int, arm: Action, seed: int, starts: Starts | None) -> float:
    """One rollout on a sampled deal: the arm (a macro walks to its end space), then greedy for
    everyone for the horizon's rounds. `seed` drives the rollout's own choices, the same for
    every arm."""
    last = state.round + HORIZON.get(state.players, 0)
    key = (state.round, state.actions_done)
    if arm.kind != END:
        state = play(state, arm, seat)

    def walked(state: State) -> Action | None:
        prompt = state.prompt
        assert prompt is not None
        if arm.kind != END or prompt.seat != seat or prompt.name != "move":
            return None
        if (state.round, state.actions_done) != key:
            return None
        return towards(state, seat, prompt.options, prompt.task.n, arm.arg)

    return value(_rollout(state, last, seed, starts, walked), seat)


def _rollout(
    state: State,
    last: int,
    seed: int,
    starts: Starts | None,
    scripted: Callable[[State], Action | None],
) -> State:
    """Plays on to the end of round `last` (or of the game): what `scripted` says, else greedy
    for every seat, its choices drawn from `seed`."""
    rng = random.Random(seed)
    mine: Starts = dict(starts or {})
    while not state.over and state.round <= last and state.prompt is not None:
        prompt = state.prompt
        state = play(state, scripted(state) or policy(state, rng, mine), prompt.seat)
    return state


def _clock(budget_ms: float) -> Iterable[int]:
    """Samples while another one, at the mean pace so far, still fits (at least one)."""
    start = time.process_time()
    deadline = start + budget_ms / 1000.0
    done = 0
    while True:
        now = time.process_time()
        if done and now + (now - start) / done > deadline:
            return
        done += 1
        yield done


class _Paired:
    """Every arm's outcome on each sample; arm 0 is greedy's choice."""

    def __init__(self, arms: int) -> None:
        self.gains: list[list[float]] = [[] for _ in range(arms)]  # over arm 0, per sample

    def add(self, outcomes: Sequence[float]) -> None:
        for arm, outcome in enumerate(outcomes):
            self.gains[arm].append(outcome - outcomes[0])

    def best(self) -> int:
        """Greedy's choice unless another arm's mean gain over it clears its noise."""

        def lower(arm: int) -> float:
            gains = self.gains[arm]
            if arm == 0 or not gains:
                return 0.0
            n = len(gains)
            mean = sum(gains) / n
            spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / max(1, n - 1))
            return mean - OVERRULE * spread / math.sqrt(n) if n > 1 else mean - 1.0

        return max(range(len(self.gains)), key=lambda arm: (lower(arm), -arm))
