"""Bradley-Terry fits of the tournament pages, computed once per state of a tournament.

A fit is a function of the recorded games alone, so it is kept per (tournament, results
recorded) and only refitted when a result comes in. The fit is quick enough (numpy) to be
computed while the page is built; the cache spares every later view of a large field the fit and
the reading of its games.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from arena.ratings import BTFit, RatingError, fit_bradley_terry

Games = list[tuple[str, str, float]]


class FitCache:
    def __init__(self) -> None:
        self._lock = threading.Lock()  # pages are built in a thread pool
        self._fits: dict[str, tuple[int, BTFit | None]] = {}  # name -> (results, its fit)

    def get(
        self, name: str, results: int, games: Callable[[], Games], entrants: Sequence[str]
    ) -> BTFit | None:
        """The fit of `name` with `results` recorded (None while too few games to fit);
        `games` reads the games, only when they must be fitted."""
        with self._lock:
            known = self._fits.get(name)
        if known is not None and known[0] == results:
            return known[1]
        fit = _fit(games(), entrants)
        with self._lock:
            self._fits[name] = (results, fit)
        return fit


def _fit(games: Games, entrants: Sequence[str]) -> BTFit | None:
    try:
        return fit_bradley_terry(games, entrants=entrants)
    except RatingError:
        return None  # too few games yet to say anything
