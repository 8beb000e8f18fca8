"""The interpreter that runs a round: queued tasks run until one needs a decision (a prompt).

Rules modules register a handler per task name (`@task`) and per prompt name (`@answer`). A task
handler returns the next state: with more tasks queued, or with a prompt set by `ask`. Applying an
action hands it to the prompt's answer handler, then runs the queue again. A prompt with a single
option answers itself, so bots and records only see real choices.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from arena.games.age_of_thieves.state import (
    PROMPT_AT,
    TASKS_AT,
    Action,
    Prompt,
    State,
    Task,
    order,
    replace,
    with_prompt,
)
from arena.games.api import GameError, GameOverError, IllegalActionError, WrongSeatError

TaskHandler = Callable[[State, Task], State]
AnswerHandler = Callable[[State, Task, Action], State]
TASKS: dict[str, TaskHandler] = {}
ANSWERS: dict[str, AnswerHandler] = {}
MAX_STEPS = 100_000  # a guard against a handler that never finishes: a bug, not a rule


def task(name: str) -> Callable[[TaskHandler], TaskHandler]:
    def register(handler: TaskHandler) -> TaskHandler:
        TASKS[name] = handler
        return handler

    return register


def answer(name: str) -> Callable[[AnswerHandler], AnswerHandler]:
    def register(handler: AnswerHandler) -> AnswerHandler:
        ANSWERS[name] = handler
        return handler

    return register


def ask(state: State, name: str, seat: int, options: Iterable[Action], resume: Task) -> State:
    """Set the prompt `name` for `seat`, its options in `Action` order (numbers by value); with
    no option at all the step is skipped."""
    prompt = prompt_for(name, seat, options, resume)
    return state if prompt is None else with_prompt(state, prompt)


def prompt_for(name: str, seat: int, options: Iterable[Action], resume: Task) -> Prompt | None:
    """The prompt `ask` sets, or None for no option at all."""
    unique = set(options)
    if not unique:
        return None
    keys = _ORDER_KEYS
    for action in unique.difference(keys):
        keys[action] = _text_key(action)
    listed = tuple(sorted(unique, key=keys.__getitem__))
    return tuple.__new__(Prompt, (name, seat, listed, resume))


def _text_key(action: Action) -> str:
    """`order(action)` as one text that sorts the same way (texts compare far faster than
    tuples): the verb, a separator below every character of a verb, then a number argument as
    "0", its length and its digits, any other argument as "1" and its text."""
    kind, flag, length, arg = order(action)
    return f"{kind}\0{flag}{chr(32 + length)}{arg}"


# The sort key of every action ever offered, so that sorting options looks keys up instead of
# working each out again: actions are a finite set (verbs with cards, spaces, seats, numbers).
_ORDER_KEYS: dict[Action, str] = {}


def run(state: State) -> State:
    """Run queued tasks until a decision is needed or the game is over."""
    for _ in range(MAX_STEPS):
        if state.over:
            return replace(state, tasks=(), prompt=None)
        prompt = state.prompt
        if prompt is not None:
            if len(prompt.options) != 1:
                return state
            state = _answer(state, prompt, prompt.options[0])
            continue
        if not state.tasks:
            raise GameError("the engine ran out of steps before the end of the game")
        tasks = state.tasks
        head = tasks[0]
        fields: list[object] = list(state)  # with_tasks, inlined: once per task
        fields[TASKS_AT] = tasks[1:]
        state = TASKS[head.name](tuple.__new__(State, fields), head)
    raise GameError("the engine did not reach a decision: a rules bug")


def play(state: State, action: Action, seat: int | None) -> State:
    """Apply a seat's decision and run on to the next one."""
    if state.over or state.prompt is None:
        raise GameOverError("the game is over: no action can be applied")
    prompt = state.prompt
    if seat is not None and seat != prompt.seat:
        raise WrongSeatError(f"it is seat {prompt.seat}'s decision, not seat {seat}'s")
    if action not in prompt.options:
        listed = ", ".join(str(option) for option in prompt.options[:12])
        more = "..." if len(prompt.options) > 12 else ""
        raise IllegalActionError(f"{action} is not allowed now ({prompt.name}): {listed}{more}")
    return run(_answer(state, prompt, action))


def _answer(state: State, prompt: Prompt, action: Action) -> State:
    fields: list[object] = list(state)  # with_prompt(state, None), inlined: once per decision
    fields[PROMPT_AT] = None
    return ANSWERS[prompt.name](tuple.__new__(State, fields), prompt.task, action)
