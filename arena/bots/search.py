"""Determinized Monte Carlo search (PIMC) with UCB1 over the root actions.

Each iteration deals the hidden cards anew (the game's `sample_state`), lets UCB1 pick a root
action, plays the game out with a cheap rollout policy and scores the final point margin.
Statistics are kept per root action and shared across determinizations, so the choice is judged
against many possible hands rather than one. Both Caper editions are played (`bots.support`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from arena.bots import aot_greedy, aot_plans, aot_search
from arena.bots.heuristic import action_values
from arena.bots.support import GameSupport, for_observation, for_state
from arena.games.age_of_thieves.observation import AgeOfThievesObservation
from arena.games.api import Game, Observation

Rollout = Callable[[Any, random.Random], Any]  # a game state to a finished one

DEFAULT_BUDGET_MS = 100.0
EXPLORATION = 0.5  # UCB1 constant for rewards in [-1, 1]; 0.4-1.2 all played alike
MARGIN_SCALE = 10.0  # a 10-point margin is worth tanh(1) ~ 0.76 of a sure win
# Gear turns offer dozens of actions, too many to sample well in a move's budget; the one-ply
# heuristic keeps the most promising few.
CANDIDATES = 10
# With a few dozen rollouts a move the heuristic prior steadies the choice; with a longer budget
# the rollouts outweigh it.
PRIOR_WEIGHT = 1.0


def random_rollout(state: Any, rng: random.Random) -> Any:
    """Uniformly random play to the end: the cheapest policy, so a budget buys the most rollouts."""
    support = for_state(state)
    legal_actions, apply = support.legal_actions, support.apply
    while state.to_move >= 0:
        legal = legal_actions(state)
        state = apply(state, legal[rng.randrange(len(legal))])
    return state


def reward(state: Any, seat: int) -> float:
    """The final margin squashed into (-1, 1): winning big counts, but not without bound."""
    support = for_state(state)
    return math.tanh(support.margin(state, support.totals(state), seat) / MARGIN_SCALE)


class SearchBot:
    """PIMC with UCB1 at the root. With `iterations` set it runs exactly that many iterations
    and never reads the clock, so a given rng makes it fully reproducible; otherwise it
    searches while another iteration still fits in `budget_ms` (the whole move included)."""

    name = "search"

    def __init__(
        self,
        budget_ms: float = DEFAULT_BUDGET_MS,
        iterations: int | None = None,
        rollout: Rollout = random_rollout,
        candidates: int = CANDIDATES,
        exploration: float = EXPLORATION,
        prior_weight: float = PRIOR_WEIGHT,
    ) -> None:
        if budget_ms <= 0 or (iterations is not None and iterations < 1):
            raise ValueError("the search needs a positive time or iteration budget")
        if candidates < 1:
            raise ValueError("the search needs at least one candidate action")
        self.budget_ms = budget_ms
        self.iterations = iterations
        self.name = _name(budget_ms, iterations)
        self.rollout = rollout
        self.candidates = candidates
        self.exploration = exploration
        self.prior_weight = prior_weight
        self.starts: aot_greedy.Starts = {}  # Age of Thieves: where each movement began
        self.routes: aot_search.Routes = {}  # and where the search chose to end it
        self.plans: aot_plans.Plans = {}  # and the plan it chose for the round

    def choose(
        self,
        game: Game[Any, Any],
        observation: Observation,
        legal: Sequence[Any],
        rng: random.Random,
    ) -> Any:
        if len(legal) == 1:
            return legal[0]
        if isinstance(observation, AgeOfThievesObservation):  # its own rollouts and scoring
            return aot_search.choose(
                observation,
                legal,
                rng,
                self.iterations,
                self.budget_ms,
                self.starts,
                self.routes,
                self.plans,
            )
        budget = self._budget()  # started first: the shortlist counts against the budget
        support = for_observation(observation)
        keep, priors = self._shortlist(support.sample_state(observation, rng), legal)
        stats = _RootStats(priors, self.exploration)
        for _ in budget:
            arm = stats.select()
            stats.update(arm, self._simulate(support, observation, legal[keep[arm]], rng))
        return legal[keep[stats.best()]]

    def _shortlist(self, state: Any, legal: Sequence[Any]) -> tuple[list[int], list[float]]:
        """Indices of the most promising actions by the one-ply heuristic, best first, and a
        prior for each: 0 for the best, down to -prior_weight for the clearly worse."""
        values = action_values(state, legal)
        order = sorted(range(len(legal)), key=lambda i: -values[i])[: self.candidates]
        top = values[order[0]]
        weight = self.prior_weight
        return order, [weight * math.tanh((values[i] - top) / MARGIN_SCALE) for i in order]

    def _budget(self) -> range | _Clock:
        if self.iterations is not None:
            return range(self.iterations)
        return _Clock(self.budget_ms)

    def _simulate(
        self, support: GameSupport, obs: Observation, action: Any, rng: random.Random
    ) -> float:
        state = support.sample_state(obs, rng)
        support.legal_actions(state)  # primes the engine's cache so `apply` skips re-validation
        state = support.apply(state, action)
        return reward(self.rollout(state, rng), obs.seat)


def _name(budget_ms: float, iterations: int | None) -> str:
    """Bots with other budgets are other players: ratings must tell them apart."""
    if iterations is not None:
        return f"search#{iterations}"
    return "search" if budget_ms == DEFAULT_BUDGET_MS else f"search@{budget_ms:g}"


class _Clock:
    """Iterates while another iteration, at the mean pace so far, still fits in the budget
    (always at least once), so a move overruns its budget rarely and by little."""

    def __init__(self, budget_ms: float) -> None:
        self.start = time.perf_counter()
        self.deadline = self.start + budget_ms / 1000.0
        self.done = 0

    def __iter__(self) -> _Clock:
        return self

    def __next__(self) -> int:
        now = time.perf_counter()
        if self.done and now + (now - self.start) / self.done > self.deadline:
            raise StopIteration
        self.done += 1
        return self.done


class _RootStats:
    """UCB1 over root arms plus a progressive bias: the heuristic prior of an arm, fading as
    its rollouts come in. Unvisited arms are tried first, in shortlist order."""

    def __init__(self, priors: list[float], exploration: float) -> None:
        self.priors = priors
        self.visits = [0] * len(priors)
        self.totals = [0.0] * len(priors)
        self.exploration = exploration
        self.count = 0

    def select(self) -> int:
        if self.count < len(self.visits):
            return self.count
        log_n = math.log(self.count)
        scores = [
            total / n + prior / (n + 1) + self.exploration * math.sqrt(log_n / n)
            for total, prior, n in zip(self.totals, self.priors, self.visits, strict=True)
        ]
        return scores.index(max(scores))

    def update(self, arm: int, value: float) -> None:
        self.visits[arm] += 1
        self.totals[arm] += value
        self.count += 1

    def best(self) -> int:
        """The most visited arm; ties go to the better mean, then to shortlist order."""
        return max(
            range(len(self.visits)),
            key=lambda i: (self.visits[i], self.totals[i] / max(1, self.visits[i]), -i),
        )
