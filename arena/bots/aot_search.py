"""Determinized search (PIMC) for Age of Thieves over the choices that decide most games: how far
Move goes (Sneak or Sprint) and where a movement ends. Greedy's rules of thumb play every other
decision.

At the first step of each movement the search takes greedy's choice and the few end spaces
greedy ranks next (`aot_greedy.ends`), each a macro: walk there by a shortest way and stop;
choosing the Move it weighs Sneak against Sprint. Each iteration deals the hidden part anew from
the seat's observation (`sample_state`), lets UCB1 pick a macro, plays it and then greedy for
every seat to the end of the round, when the guards have answered, and scores the outcome
statically, in line with section 19: a finished game is won (1) or lost (-1, everybody losing
included); else each thief's standing is having left the city (with his VP, a winner once the
alarm deck ends), carrying the Emperor's Jewel towards an exit he can still reach in the alarm
rounds left, his VP, and his distance to his goal; an arrest costs a round and a jewel. The
chosen end space is kept for the rest of the movement, so one movement costs one search.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable, Sequence

from arena.bots.aot_greedy import Starts, ends, policy, towards
from arena.bots.aot_ways import distance, goal, slack
from arena.games.age_of_thieves.engine import play
from arena.games.age_of_thieves.observation import AgeOfThievesObservation
from arena.games.age_of_thieves.queries import in_dungeon
from arena.games.age_of_thieves.sampling import sample_state
from arena.games.age_of_thieves.state import MOVE, Action, State

CANDIDATES = 4  # greedy's end space and the next ones it ranks
EXPLORATION = 0.5
GREEDY_PRIOR = 0.3  # the greedy choice starts ahead, fading as rollouts come in
OVERRULE = 0.3  # how far another arm's mean must lead the greedy one's, times 1/sqrt(visits)
END = "end"  # the kind of a macro arm: walk to its space and stop
SHARE = 0.8  # of the move budget a searched decision spends: the rest are greedy and cheap

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
) -> Action:
    """The searched choice: `iterations` rollouts if given (no clock read), else as many as fit
    in `SHARE` of `budget_ms`. `starts` is the greedy policy's memory of where movements began,
    `routes` the search's of where the current movement ends."""
    if len(legal) == 1:
        return legal[0]
    state = sample_state(obs, rng)
    prompt = state.prompt
    routes = {} if routes is None else routes
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
    budget: Iterable[int] = range(iterations) if iterations else _clock(budget_ms * SHARE)
    stats = _Stats(len(arms))
    for _ in budget:
        arm = stats.select()
        stats.update(arm, _simulate(obs, arms[arm], rng, starts))
    chosen = arms[stats.best()]
    if chosen.kind != END:
        return _legal(chosen, legal, rng)
    routes[obs.seat] = (*key, chosen.arg)
    return _legal(towards(state, obs.seat, legal, prompt.task.n, chosen.arg), legal, rng)


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
    _, scored = ends(state, seat, state.prompt.task.n, start)
    return [Action(END, space) for _, space in scored[1:CANDIDATES]]


def _legal(action: Action, legal: Sequence[Action], rng: random.Random) -> Action:
    return action if action in legal else legal[rng.randrange(len(legal))]


def _simulate(
    obs: AgeOfThievesObservation, arm: Action, rng: random.Random, starts: Starts | None
) -> float:
    """One rollout: the arm (a macro walks to its end space), then greedy for everyone to the
    end of the round."""
    state = sample_state(obs, rng)
    seat, last = obs.seat, state.round
    key = (state.round, state.actions_done)
    mine: Starts = dict(starts or {})
    if arm.kind != END:
        state = play(state, arm, seat)
    while not state.over and state.round <= last and state.prompt is not None:
        prompt = state.prompt
        macro = arm.kind == END and prompt.seat == seat and prompt.name == "move"
        if macro and (state.round, state.actions_done) == key:
            choice = towards(state, seat, prompt.options, prompt.task.n, arm.arg)
        else:
            choice = policy(state, rng, mine)
        state = play(state, choice, prompt.seat)
    return value(state, seat)


def value(state: State, seat: int) -> float:
    """The outcome for `seat` in [-1, 1]: the result if the game is over, else its standing
    against the best other thief."""
    if state.over:
        return 1.0 if state.winner == seat else -1.0
    mine = standing(state, seat)
    best = max(standing(state, s) for s in range(state.players) if s != seat)
    return math.tanh(2.0 * (mine - best))


def standing(state: State, seat: int) -> float:
    """How well a thief is placed for section 19: having left the city (with his VP), the
    Emperor's Jewel with an exit in reach before the alarm ends, VP, how far his goal is; an
    arrest costs a round."""
    thief = state.thief(seat)
    vp = 0.1 * (thief.yellow + 2 * thief.green + 3 * thief.best + thief.trinkets)
    if not thief.on_board:
        return 1.0 + vp
    target = goal(state, seat)
    far = distance(thief.space, target) if target else 0
    score = vp - 0.03 * far - 0.4 * in_dungeon(thief)
    if thief.ej:
        score += 1.0
    if target and state.escape and slack(state, thief.space, far) < 0:
        score -= 0.5 + 0.5 * thief.ej  # too far to leave before the alarm deck ends
    return score


def _clock(budget_ms: float) -> Iterable[int]:
    """Iterations while another one, at the mean pace so far, still fits (at least one)."""
    start = time.process_time()
    deadline = start + budget_ms / 1000.0
    done = 0
    while True:
        now = time.process_time()
        if done and now + (now - start) / done > deadline:
            return
        done += 1
        yield done


class _Stats:
    """UCB1 over the root arms; arm 0 (the greedy choice) carries a fading prior."""

    def __init__(self, arms: int) -> None:
        self.visits = [0] * arms
        self.totals = [0.0] * arms
        self.count = 0

    def select(self) -> int:
        if self.count < len(self.visits):
            return self.count
        log_n = math.log(self.count)
        scores = [
            (total + GREEDY_PRIOR * (i == 0)) / n + EXPLORATION * math.sqrt(log_n / n)
            for i, (total, n) in enumerate(zip(self.totals, self.visits, strict=True))
        ]
        return scores.index(max(scores))

    def update(self, arm: int, reward: float) -> None:
        self.visits[arm] += 1
        self.totals[arm] += reward
        self.count += 1

    def best(self) -> int:
        """The greedy choice unless another arm's mean beats it by more than its noise."""

        def lower(i: int) -> float:
            n = max(1, self.visits[i])
            return self.totals[i] / n - (i != 0) * OVERRULE / math.sqrt(n)

        return max(range(len(self.visits)), key=lambda i: (lower(i), -i))
