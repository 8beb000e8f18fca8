"""Players and scenarios for the Age of Thieves engine tests."""

from __future__ import annotations

import random
from typing import Any

from arena.games.age_of_thieves.engine import run, task
from arena.games.age_of_thieves.game import AGE_OF_THIEVES
from arena.games.age_of_thieves.queries import board, open_exits
from arena.games.age_of_thieves.state import Action, State, Task, replace

GAME = AGE_OF_THIEVES


@task("halt")
def _halt(state: State, _: Task) -> State:
    """A test's end of the queue: the state is frozen as it is (marked over to stop the run)."""
    return replace(state, over=True, reason="halt")


def scenario(state: State, *tasks: Task, **changes: Any) -> State:
    """Run `tasks` on `state` changed by `changes`, then stop (a `halt` after them)."""
    return run(replace(state, prompt=None, tasks=(*tasks, Task("halt")), **changes))


def answer(state: State, *texts: str) -> State:
    """Apply decisions given as text, each by the seat to act."""
    for text in texts:
        state = GAME.apply(state, GAME.parse_action(text), GAME.current_player(state))
    return state


def options(state: State) -> list[str]:
    return [str(a) for a in GAME.legal_actions(state)]


def _goal(state: State, seat: int) -> str | None:
    thief = state.thief(seat)
    exits = open_exits(state)
    if thief.ej or not any(kind == "ej" for _, kind in state.jewels):
        return min(exits, key=lambda x: board().distance(thief.space, x)) if exits else None
    return next(space for space, kind in state.jewels if kind == "ej")


def eager(state: State, rng: random.Random) -> Action:
    """A simple player that plans Move with most of its AP, heads for the Emperor's Jewel, then
    for an exit, and takes whatever lies on its way; other decisions at random. It drives games
    into the alarm and out of the city, which random play rarely does."""
    prompt = state.prompt
    assert prompt is not None
    acts, thief = prompt.options, state.thief(prompt.seat)
    kinds = {a.kind for a in acts}
    if prompt.name == "plan":
        if "ap" in kinds:
            values = sorted(int(a.arg) for a in acts)
            return Action("ap", str(values[-1] if thief.plan[-1].card == "B01" else values[0]))
        if Action("plan", "B01") in acts:
            return Action("plan", "B01")
        return rng.choice(acts) if rng.random() < 0.5 else Action("done")
    if prompt.name == "turn":
        best = [a for a in acts if a.kind == "sneak"] or [a for a in acts if a.kind != "decline"]
        return best[0] if best else rng.choice(acts)
    if prompt.name == "move":
        return _move(state, prompt.seat, acts) or rng.choice(acts)
    return rng.choice(acts)


def _move(state: State, seat: int, acts: tuple[Action, ...]) -> Action | None:
    for action in acts:
        if action.kind in ("take", "steal"):
            return action
    goal, here = _goal(state, seat), state.thief(seat).space
    steps = [a for a in acts if a.kind == "step"]
    if goal and steps:
        best = min(steps, key=lambda a: (board().distance(a.arg, goal), a.arg))
        if board().distance(best.arg, goal) < board().distance(here, goal):
            return best
    return Action("stop") if Action("stop") in acts else None


def play(players: int, seed: int, eager_player: bool = False) -> tuple[State, list[str]]:
    """One game to the end: random decisions, or the eager player's; the final state and the
    actions as text."""
    state = GAME.create({"players": players}, seed)
    rng = random.Random(seed)
    actions: list[str] = []
    while not GAME.is_terminal(state):
        legal = GAME.legal_actions(state)
        action = eager(state, rng) if eager_player else rng.choice(list(legal))
        actions.append(GAME.action_text(action))
        state = GAME.apply(state, action, GAME.current_player(state))
    return state, actions
