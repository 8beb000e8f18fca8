"""The event state machine, on its own: every command from every state, taken or refused with
a message naming the event and its state."""

from __future__ import annotations

import pytest

from arena.tournament.lifecycle import (
    TRANSITIONS,
    Command,
    LifecycleError,
    State,
    check,
    next_state,
)

CREATED, RUNNING, FINISHED, STOPPED = State

TAKEN = {  # (command, from) -> to; every pair not listed is refused
    (Command.START, CREATED): RUNNING,
    (Command.RUN, CREATED): RUNNING,
    (Command.RUN, RUNNING): RUNNING,
    (Command.STOP, RUNNING): STOPPED,
    (Command.RESUME, STOPPED): RUNNING,
    (Command.FINISH, RUNNING): FINISHED,
    (Command.ENTER, CREATED): CREATED,
    (Command.ENTER, RUNNING): RUNNING,
    (Command.WITHDRAW, CREATED): CREATED,
    (Command.WITHDRAW, RUNNING): RUNNING,
}

REFUSALS = [
    (Command.START, RUNNING, "cup is running (2 of 5 rounds); it has started already"),
    (Command.START, FINISHED, "cup is finished (2 of 5 rounds); nothing to start"),
    (Command.START, STOPPED, "cup is stopped (2 of 5 rounds); resume it to go on"),
    (Command.RUN, STOPPED, "cup is stopped (2 of 5 rounds); resume it to go on"),
    (Command.RUN, FINISHED, "cup is finished (2 of 5 rounds); nothing to run"),
    (Command.STOP, CREATED, "cup is created (2 of 5 rounds); it has not started; nothing to stop"),
    (Command.STOP, FINISHED, "cup is finished (2 of 5 rounds); nothing to stop"),
    (Command.STOP, STOPPED, "cup is stopped (2 of 5 rounds); it is stopped already"),
    (Command.RESUME, CREATED, "cup is created (2 of 5 rounds); it has not started; start it"),
    (Command.RESUME, RUNNING, "cup is running (2 of 5 rounds); nothing to resume"),
    (Command.RESUME, FINISHED, "cup is finished (2 of 5 rounds); nothing to resume"),
    (Command.FINISH, STOPPED, "cup is stopped (2 of 5 rounds); resume it first"),
    (Command.ENTER, FINISHED, "cup is finished (2 of 5 rounds); too late to enter"),
    (Command.ENTER, STOPPED, "cup is stopped (2 of 5 rounds); no entries while it is stopped"),
    (Command.WITHDRAW, FINISHED, "cup is finished (2 of 5 rounds); too late to withdraw"),
    (Command.WITHDRAW, STOPPED, "cup is stopped (2 of 5 rounds); no withdrawals while it"),
]


@pytest.mark.parametrize("command", list(Command))
@pytest.mark.parametrize("state", list(State))
def test_each_state_takes_exactly_the_commands_that_fit(command: Command, state: State) -> None:
    assert next_state(state, command) == TAKEN.get((command, state))
    if (command, state) in TAKEN:
        assert check("cup", state, command) is TAKEN[(command, state)]
    else:
        with pytest.raises(LifecycleError) as refused:
            check("cup", state, command)
        assert str(refused.value).startswith(f"cup is {state.value}; ")
        assert (refused.value.state, refused.value.command) == (state, command)


@pytest.mark.parametrize(("command", "state", "message"), REFUSALS)
def test_a_refusal_names_the_event_its_state_and_why(
    command: Command, state: State, message: str
) -> None:
    with pytest.raises(LifecycleError) as refused:
        check("cup", state, command, "2 of 5 rounds")
    assert str(refused.value).startswith(message)


def test_a_finished_event_never_changes_state_again() -> None:
    assert all(FINISHED not in allowed for allowed in TRANSITIONS.values())
    with pytest.raises(ValueError, match="cup is finished; nothing to start"):
        check("cup", FINISHED, Command.START)
