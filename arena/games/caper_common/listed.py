"""The action list `legal_actions` gave out last, so that `apply` can take an action from it
without checking it again: bots apply one of the actions they were just listed."""

from __future__ import annotations

from typing import Any

# (the state listed, its actions); each edition's rules module keeps its own.
Listed = tuple[Any, tuple[Any, ...]]


def is_listed(
    last: Listed, state: Any, action: Any, seat: int | None, action_type: type, kind_type: type
) -> bool:
    """Whether `action` is one of those `last` listed for this very `state`, played by the
    seat to move. The type checks keep a look-alike (an equal plain tuple) from passing."""
    listed_for, listed = last
    return (
        listed_for is state
        and isinstance(action, action_type)
        and isinstance(getattr(action, "kind", None), kind_type)
        and (seat is None or seat == state.to_move)
        and action in listed
    )
