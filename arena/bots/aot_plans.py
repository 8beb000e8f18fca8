"""The whole plans the Age of Thieves search weighs at the planning step (rules
docs/rules/age-of-thieves.md, sections 7 and 8): greedy's plan; every AP on Move, so that it
resolves before the guards and the other thieves' Move and may Sprint; and, when another thief
carries the Emperor's Jewel, each card in hand that can take it from him or bring a guard onto
him (Fishing Rod, Pickpocket, Beacon, Noise Grenade), played before Move with all but 1 AP or
after it with 1.

A plan is a macro: the answers to the seat's planning prompts in order, then, for a card played
against the Emperor's Jewel's holder, resolving it at its turn and aiming it at him (`follow`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from arena.bots.aot_greedy import Starts, policy
from arena.bots.aot_ways import distance
from arena.games.age_of_thieves.engine import play
from arena.games.age_of_thieves.state import MOVE, Action, State

ROD, PICKPOCKET, BEACON, NOISE = "G09", "G16", "G01", "G08"
STRIKES = (ROD, PICKPOCKET, BEACON, NOISE)  # cards that can take the EJ or arrest its holder


@dataclass(frozen=True)
class Plan:
    """The answers to the seat's planning prompts, in order, and the card it plays against
    the Emperor's Jewel's holder `victim` ("" and -1 if none)."""

    steps: tuple[Action, ...]
    card: str = ""
    victim: int = -1


# seat: (round, the plan chosen for it)
Plans = dict[int, tuple[int, Plan]]

Pick = Callable[[list[int]], int]  # the AP for a card, from the totals offered


def plans(state: State, seat: int, rng: random.Random, starts: Starts | None) -> list[Plan]:
    """Greedy's plan first, then the other plans that differ from it, each legal from the
    seat's first planning step in `state`."""
    found = [Plan(_greedy(state, seat, rng, starts))]
    everything = _scripted(state, seat, [(MOVE, _most)])
    if everything is not None:
        found.append(Plan(everything))
    victim = _holder(state, seat)
    if victim >= 0:
        held = [card for card in STRIKES if card in state.thief(seat).hand]
        for card in dict.fromkeys(held):
            for script in (
                [(card, _all_but_one), (MOVE, _most)],
                [(MOVE, _all_but_one), (card, _most)],
            ):
                steps = _scripted(state, seat, script)
                if steps is not None:
                    found.append(Plan(steps, card, victim))
    unique: dict[tuple[Action, ...], Plan] = {}
    for plan in found:  # greedy's first
        unique.setdefault(plan.steps, plan)
    return list(unique.values())


def follow(state: State, seat: int, plan: Plan) -> Action | None:
    """The plan's answer to the seat's pending decision in the round it was made for; None
    where greedy's rules decide."""
    prompt = state.prompt
    if prompt is None or prompt.seat != seat:
        return None
    options = prompt.options
    if prompt.name == "plan":
        done = sum(1 + (p.ap > 0) for p in state.thief(seat).plan)
        step = plan.steps[done] if done < len(plan.steps) else None
        return step if step in options else None
    if not plan.card or plan.victim < 0:
        return None
    if prompt.name == "turn":
        strike = Action("resolve", plan.card)
        return strike if strike in options else None
    if prompt.name == "fx" and prompt.task.arg.partition("|")[0] == plan.card and options:
        return _aim(state, plan, options)
    return None


def _greedy(
    state: State, seat: int, rng: random.Random, starts: Starts | None
) -> tuple[Action, ...]:
    steps: list[Action] = []
    while _planning(state, seat):
        action = policy(state, rng, starts)
        steps.append(action)
        state = play(state, action, seat)
    return tuple(steps)


def _scripted(
    state: State, seat: int, script: Sequence[tuple[str, Pick]]
) -> tuple[Action, ...] | None:
    """Each card of `script` with the AP its pick gives, then `done`; None if not legal. The
    engine answers a step with one option itself: it is not one of the plan's."""
    steps: list[Action] = []
    for card, pick in script:
        for step in range(2):
            if not _planning(state, seat):
                break
            assert state.prompt is not None
            options = state.prompt.options
            aps = sorted(int(a.arg) for a in options if a.kind == "ap")
            action = Action("ap", str(pick(aps))) if step else Action("plan", card)
            if action not in options:
                return None
            steps.append(action)
            state = play(state, action, seat)
    if _planning(state, seat):
        steps.append(Action("done"))
        state = play(state, Action("done"), seat)
    thief = state.thief(seat)
    return tuple(steps) if [p.card for p in thief.plan] == [c for c, _ in script] else None


def _most(aps: list[int]) -> int:
    return aps[-1] if aps else 0


def _all_but_one(aps: list[int]) -> int:
    """Every AP but one, left for the plan's other card (the least if that leaves none)."""
    return max([n for n in aps if n < aps[-1]] or aps[:1]) if aps else 0


def _planning(state: State, seat: int) -> bool:
    prompt = state.prompt
    return prompt is not None and prompt.seat == seat and prompt.name == "plan"


def _holder(state: State, seat: int) -> int:
    """Another thief in the city carrying the Emperor's Jewel, else -1."""
    return next((s for s, t in enumerate(state.thieves) if s != seat and t.ej and t.on_board), -1)


def _aim(state: State, plan: Plan, options: Sequence[Action]) -> Action:
    """At the EJ's holder: steal the EJ, target him, the space or guard nearest him, a guard's
    step towards him (or stop when none brings it nearer)."""
    there = state.thief(plan.victim).space
    victim = str(plan.victim)

    def near(space: str) -> int:
        return distance(space, there) if there else 0

    for wanted in (Action("steal", f"{victim}:ej"), Action("target", victim)):
        if wanted in options:
            return wanted
    steps = [a for a in options if a.kind in ("to", "target") and not a.arg.isdigit()]
    if not steps:
        return options[0]
    best = min(steps, key=lambda a: (near(a.arg), a.arg))
    stop = Action("stop")
    if stop in options and best.kind == "to" and _standing(state, plan) <= near(best.arg):
        return stop
    return best


def _standing(state: State, plan: Plan) -> int:
    """How far the steered guard now stands from the victim (the walk's current space)."""
    assert state.prompt is not None
    walk = state.prompt.task.arg.partition("|")[2].partition(";")[0].split(">")
    there = state.thief(plan.victim).space
    return distance(walk[1], there) if len(walk) == 3 and there else 1 << 30
