"""An event's lifecycle state in its Redis hash, changed only in one transaction: of two
commands at once (two `start`s), one is applied and the other refused, naming the state
(`arena.tournament.lifecycle`). Tournaments and ladders keep theirs this way."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

import redis

from arena.store.values import as_text
from arena.tournament.lifecycle import Command, LifecycleError, State, next_state


def transition(
    client: redis.Redis,
    key: str,
    field: str,
    event: str,
    command: Command,
    detail: Callable[[State], str],
    reason: str = "",
    also: Mapping[str, str | int] | None = None,
) -> State:
    """Apply `command` to the state in `key`'s `field` (which must be there), noting `reason`
    (why it stopped) and when, and writing the fields `also` in the same step; returns the
    state before. A command the state does not take
    raises `LifecycleError` naming `event`, its state and `detail(state)`."""
    with client.pipeline() as pipe:
        while True:
            try:
                pipe.watch(key)  # type: ignore[no-untyped-call]
                before = State(as_text(pipe.hget(key, field) or ""))
                if (after := next_state(before, command)) is None:
                    pipe.unwatch()
                    raise LifecycleError(event, before, command, detail(before))
                pipe.multi()
                changes: dict[str, str | int | float] = {**(also or {})}
                changes.update({field: after.value, "reason": reason, "since": time.time()})
                pipe.hset(key, mapping=changes)  # type: ignore[arg-type]
                pipe.execute()
                return before
            except redis.WatchError:
                continue  # another command changed the state first: read it again


def set_derived(client: redis.Redis, key: str, field: str, derived: State) -> State:
    """Store `derived` as the state of an event stored before states were (unless another
    process stored one first); the state stored."""
    client.hsetnx(key, field, derived.value)
    return State(as_text(client.hget(key, field) or derived.value))
