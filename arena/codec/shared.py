"""What the games' codecs share: checking which fields an action message sets, and naming an
enum value for an error message."""

from __future__ import annotations

from typing import Any

from arena.games.api import InvalidActionError


def check_fields(
    kind: str, present: set[str], required: frozenset[str], allowed: frozenset[str]
) -> None:
    """`InvalidActionError` naming the first missing field, or the fields that must be unset."""
    what = f"a {kind} action"
    if missing := sorted(required - present):
        raise InvalidActionError(f"{what} is missing {' and '.join(missing)}")
    if extra := sorted(present - allowed):
        raise InvalidActionError(f"{what} takes no {' or '.join(extra)}: leave it unset")


def enum_label(enum: Any, value: int) -> str:
    """`value`'s name in the generated `enum`, or the number marked unknown."""
    try:
        return str(enum.Name(value))
    except ValueError:  # proto3 enums are open: a newer peer may send a number we do not know
        return f"{value} (unknown)"
