"""The interpreter's own helpers: a prompt lists its options in `Action` order however they
were given, and shared action values equal the ones built directly."""

from __future__ import annotations

from arena.games.age_of_thieves.engine import prompt_for
from arena.games.age_of_thieves.state import Action, Task, actions, order


def test_a_prompt_lists_options_in_action_order_numbers_by_value() -> None:
    """Numbers sort by value (2 before 10) and before other arguments; a verb that begins
    another sorts first; duplicates are listed once."""
    given = [
        Action("ap", "10"),
        Action("ap", "2"),
        Action("ap", "x"),
        Action("apx", "1"),
        Action("a", "9"),
        Action("step", "N34"),
        Action("steal", "1:green"),
        Action("done"),
        Action("ap", "2"),
        Action("ap", "02x"),
        Action("ap", "100"),
    ]
    prompt = prompt_for("plan", 1, given, Task("plan", 1))
    assert prompt is not None
    assert prompt.options == tuple(sorted(set(given), key=order))
    listed = [str(a) for a in prompt.options]
    assert listed[:7] == ["a 9", "ap 2", "ap 10", "ap 100", "ap 02x", "ap x", "apx 1"]
    assert (prompt.name, prompt.seat, prompt.task) == ("plan", 1, Task("plan", 1))
    assert prompt_for("plan", 1, [], Task("plan", 1)) is None


def test_shared_actions_equal_new_ones() -> None:
    assert actions("step", ["N34", "S80"]) == [Action("step", "N34"), Action("step", "S80")]
    assert actions("step", ["N34"])[0] is actions("step", ["N34"])[0]
    assert actions("take", []) == []
