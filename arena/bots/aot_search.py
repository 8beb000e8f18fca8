"""Determinized search (PIMC) for Age of Thieves, as the Caper search does it: each iteration
deals the hidden part anew from the seat's observation (`sample_state`), lets UCB1 pick one of a
few root actions, plays on with the greedy policy for every seat and scores the outcome.

A whole game takes ~300 decisions, so rollouts stop after the end of the next round and are
scored by a static evaluation (who holds the Emperor's Jewel, VP, distance to the goal, the
dungeon); a finished game scores its result: 1 for a win, -1 for another's, -0.5 when everybody
loses.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable, Sequence

from arena.bots.aot_greedy import Starts, policy
from arena.bots.aot_ways import goal
from arena.games.age_of_thieves.engine import play
from arena.games.age_of_thieves.observation import AgeOfThievesObservation
from arena.games.age_of_thieves.queries import board, in_dungeon
from arena.games.age_of_thieves.sampling import sample_state
from arena.games.age_of_thieves.state import Action, State

CANDIDATES = 6  # the greedy choice and a few others: decisions offer up to ~20 actions
EXPLORATION = 0.7
GREEDY_PRIOR = 0.3  # the greedy choice starts ahead, fading as rollouts come in
HORIZON = 2  # rounds begun before a rollout is scored statically
EPSILON = 0.1  # rollouts stray from the greedy policy this often, so they differ
EVERYONE_LOSES = -0.5
OVERRULE = 0.5  # how far another arm's mean must lead the greedy one's, times 1/sqrt(visits)


def choose(
    obs: AgeOfThievesObservation,
    legal: Sequence[Action],
    rng: random.Random,
    iterations: int | None,
    budget_ms: float,
    starts: Starts | None = None,
) -> Action:
    """The searched choice: `iterations` rollouts if given (no clock read), else as many as fit
    in `budget_ms`. `starts` is the greedy policy's memory of where movements began."""
    if len(legal) == 1:
        return legal[0]
    budget: Iterable[int] = range(iterations) if iterations else _clock(budget_ms)
    arms = _shortlist(obs, legal, rng, starts)
    stats = _Stats(len(arms))
    for _ in budget:
        arm = stats.select()
        stats.update(arm, _simulate(obs, arms[arm], rng))
    return arms[stats.best()]


def _shortlist(
    obs: AgeOfThievesObservation,
    legal: Sequence[Action],
    rng: random.Random,
    starts: Starts | None,
) -> list[Action]:
    """The greedy choice first, then others drawn at random (legal lists are sorted, so taking
    the first few would always favour the same verbs)."""
    first = policy(sample_state(obs, rng), rng, starts)
    others = [a for a in legal if a != first]
    rng.shuffle(others)
    return ([first] if first in legal else []) + others[: CANDIDATES - 1]


def _simulate(obs: AgeOfThievesObservation, action: Action, rng: random.Random) -> float:
    state = play(sample_state(obs, rng), action, obs.seat)
    last = state.round + HORIZON - 1
    starts: Starts = {}
    while not state.over and state.round <= last and state.prompt is not None:
        prompt = state.prompt
        if rng.random() < EPSILON:
            choice = prompt.options[rng.randrange(len(prompt.options))]
        else:
            choice = policy(state, rng, starts)
        state = play(state, choice, prompt.seat)
    return value(state, obs.seat)


def value(state: State, seat: int) -> float:
    """The outcome for `seat` in [-1, 1]: the result if the game is over, else its standing
    against the best other thief."""
    if state.over:
        if state.winner < 0:
            return EVERYONE_LOSES
        return 1.0 if state.winner == seat else -1.0
    mine = standing(state, seat)
    best = max(standing(state, s) for s in range(state.players) if s != seat)
    return math.tanh(mine - best)


def standing(state: State, seat: int) -> float:
    """How well a thief is placed: the Emperor's Jewel, then having left with VP, VP, and how
    far he still is from his goal; the dungeon costs a round."""
    thief = state.thief(seat)
    if not thief.on_board:
        return 1.0 + 0.1 * thief.vp
    target = goal(state, seat)
    far = board().distance(thief.space, target) if target else 0
    return 1.0 * thief.ej + 0.1 * thief.vp - 0.03 * max(far, 0) - 0.3 * in_dungeon(thief)


def _clock(budget_ms: float) -> Iterable[int]:
    """Iterations while another one, at the mean pace so far, still fits (at least one)."""
    start = time.perf_counter()
    deadline = start + budget_ms / 1000.0
    done = 0
    while True:
        now = time.perf_counter()
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
        """The greedy choice unless another arm's mean beats it by more than its noise: a few
        rollouts of a four-player game are too noisy to overrule the rules of thumb on less."""

        def lower(i: int) -> float:
            n = max(1, self.visits[i])
            return self.totals[i] / n - (i != 0) * OVERRULE / math.sqrt(n)

        return max(range(len(self.visits)), key=lambda i: (lower(i), -i))
