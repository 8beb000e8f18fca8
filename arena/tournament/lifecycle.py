"""The life of an event (a tournament, a ladder, an SPRT test): its four states, the commands
each state takes, and the refusal, naming the event and its state, of a command that does not
fit ("cup is finished (5 of 5 rounds); nothing to start").

Pure: the stores keep the state in Redis and change it only through `next_state`, in one
transaction, so two commands racing (two `start`s) cannot both succeed.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum


class State(StrEnum):
    CREATED = "created"  # defined; nothing scheduled yet
    RUNNING = "running"
    FINISHED = "finished"  # every round played (a test: decided)
    STOPPED = "stopped"  # by the organiser, or because it could not go on; resume goes on


class Command(StrEnum):
    START = "start"
    RUN = "run"  # `arena ladder run`: starts a ladder, or runs a running one on; may repeat
    STOP = "stop"
    RESUME = "resume"
    FINISH = "finish"  # the workers, once the last round is recorded
    ENTER = "enter"  # a late entry
    WITHDRAW = "withdraw"


_CREATED, _RUNNING, _FINISHED, _STOPPED = State

# The state each command leads to, from each state that takes it; any other is refused.
TRANSITIONS: Mapping[Command, Mapping[State, State]] = {
    Command.START: {_CREATED: _RUNNING},
    Command.RUN: {_CREATED: _RUNNING, _RUNNING: _RUNNING},
    Command.STOP: {_RUNNING: _STOPPED},
    Command.RESUME: {_STOPPED: _RUNNING},
    Command.FINISH: {_RUNNING: _FINISHED},
    Command.ENTER: {_CREATED: _CREATED, _RUNNING: _RUNNING},
    Command.WITHDRAW: {_CREATED: _CREATED, _RUNNING: _RUNNING},
}

# Why a refused command does not fit, by command and state: what the organiser reads.
_WHY: Mapping[Command, Mapping[State, str]] = {
    Command.START: {
        _RUNNING: "it has started already",
        _FINISHED: "nothing to start",
        _STOPPED: "resume it to go on",
    },
    Command.RUN: {_FINISHED: "nothing to run", _STOPPED: "resume it to go on"},
    Command.STOP: {
        _CREATED: "it has not started; nothing to stop",
        _FINISHED: "nothing to stop",
        _STOPPED: "it is stopped already",
    },
    Command.RESUME: {
        _CREATED: "it has not started; start it instead",
        _RUNNING: "nothing to resume",
        _FINISHED: "nothing to resume",
    },
    Command.FINISH: {
        _CREATED: "it has not started",
        _FINISHED: "it is finished already",
        _STOPPED: "resume it first",
    },
    Command.ENTER: {_FINISHED: "too late to enter", _STOPPED: "no entries while it is stopped"},
    Command.WITHDRAW: {
        _FINISHED: "too late to withdraw",
        _STOPPED: "no withdrawals while it is stopped",
    },
}


class LifecycleError(ValueError):
    """A command that does not fit the event's state; the message names both."""

    def __init__(self, event: str, state: State, command: Command, detail: str = "") -> None:
        self.event, self.state, self.command = event, state, command
        shown = f" ({detail})" if detail else ""
        super().__init__(f"{event} is {state.value}{shown}; {why(command, state)}")


def why(command: Command, state: State) -> str:
    return _WHY[command].get(state, f"it does not take {command.value} now")


def next_state(state: State, command: Command) -> State | None:
    """The state `command` leads to from `state`; None if `state` does not take it."""
    return TRANSITIONS[command].get(state)


def check(event: str, state: State, command: Command, detail: str = "") -> State:
    """The state `command` leads to, or `LifecycleError` naming `event`, its state and why."""
    target = next_state(state, command)
    if target is None:
        raise LifecycleError(event, state, command, detail)
    return target
