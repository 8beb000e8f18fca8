"""What the rules worked out for the last state they looked at, kept for the next call.

Bots apply one of the actions they were just listed, so `apply` can take an action from the last
list without checking it again, and work done while listing (such as cost modifiers) need not be
done twice. Each edition's rules module owns its memories as named `LastState` objects.
"""

from __future__ import annotations

from typing import Any


class LastState:
    """One value worked out for one state, kept until a value for another state replaces it.

    It holds a single (state, value) pair, so it never grows; states are immutable and matched
    by identity, so a value kept is never stale. The pair is replaced in one assignment, so a
    reader never sees one state's value paired with another state.
    """

    __slots__ = ("_last",)

    def __init__(self) -> None:
        self._last: tuple[Any, Any] = (None, None)

    def keep(self, state: Any, value: Any) -> None:
        """Remember `value` as worked out for `state` (forgetting what was kept before)."""
        self._last = (state, value)

    def recall(self, state: Any) -> Any:
        """The value kept for this very `state`, or None if the last one kept was for another."""
        kept_for, value = self._last
        return value if kept_for is state else None


def is_listed(
    listed: LastState, state: Any, action: Any, seat: int | None, action_type: type, kind_type: type
) -> bool:
    """Whether `action` is one of the actions `listed` keeps for this very `state`, played by
    the seat to move. The type checks keep a look-alike (an equal plain tuple) from passing."""
    actions = listed.recall(state)
    return (
        actions is not None
        and isinstance(action, action_type)
        and isinstance(getattr(action, "kind", None), kind_type)
        and (seat is None or seat == state.to_move)
        and action in actions
    )
