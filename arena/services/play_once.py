"""A match or table played once: what every job playing one does, whatever its kind."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

from arena.store.tournaments import Status, TournamentStore

log = logging.getLogger("arena.workers")

T = TypeVar("T")


def play_once(
    kind: str,
    the_id: str,
    done: T | None,
    stored: Callable[[], T | None],
    count_attempt: Callable[[], int],
    play: Callable[[], T],
    record: Callable[[T], bool],
) -> T:
    """`done`, the result of `the_id` stored already, if there is one; else play it and record
    it. The first result recorded wins: a job run twice (a retry after a lost reply, a
    duplicate) keeps it, read again with `stored`."""
    if done is not None:
        return done
    if (attempt := count_attempt()) > 1:
        log.warning("%s %s: attempt %d, replayed from scratch", kind, the_id, attempt)
    done = play()
    if not record(done):
        log.info("%s %s was recorded by another run; keeping that one", kind, the_id)
        done = stored() or done
    return done


def still_running(store: TournamentStore, name: str) -> bool:
    """Whether a tournament's job may play its next match or table: not once the tournament
    is stopped (its queued jobs then do nothing; a resume queues them again)."""
    if (status := store.status(name)) is Status.RUNNING:
        return True
    log.info("tournament %s is %s: its queued matches are not played", name, status.value)
    return False
