"""Bradley-Terry fits of the tournament pages, computed once per state of a tournament.

A fit is a function of the recorded games alone, so it is kept per (tournament, results
recorded) and only refitted when a result comes in. A small field is fitted while the page is
built; a large one (the fit is dense, cubic in the field: about 90 s for 1,024 entrants) in a
child process watched by a background thread, and the page says the ratings are on their way;
the live script picks them up without a reload.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
from collections.abc import Sequence
from multiprocessing.connection import Connection

from arena.ratings import BTFit, RatingError, fit_bradley_terry

log = logging.getLogger(__name__)

INLINE_ENTRANTS = 200  # about half a second of fitting at most: done while the page waits

Games = list[tuple[str, str, float]]


class FitCache:
    def __init__(self, inline_entrants: int = INLINE_ENTRANTS) -> None:
        self._inline = inline_entrants
        self._lock = threading.Lock()
        self._fits: dict[str, tuple[int, BTFit | None]] = {}  # name -> (results, its fit)
        self._running: dict[str, int] = {}  # name -> results of the fit being computed

    def get(
        self, name: str, results: int, games: Games, entrants: Sequence[str]
    ) -> tuple[BTFit | None, bool]:
        """(the fit, or None if there is none yet; whether one is being computed)."""
        with self._lock:
            known = self._fits.get(name)
            if known is not None and known[0] == results:
                return known[1], False
            if len(entrants) > self._inline:
                if self._running.get(name) != results:
                    self._running[name] = results
                    thread = threading.Thread(
                        target=self._fit_later,
                        args=(name, results, games, tuple(entrants)),
                        name=f"fit-{name}",
                        daemon=True,  # never holds up the end of the process
                    )
                    thread.start()
                return None, True
        fit = _fit(games, entrants)
        with self._lock:
            self._fits[name] = (results, fit)
        return fit, False

    def pending(self, name: str, results: int) -> bool:
        """A fit of this tournament state is being computed (the live script waits for it)."""
        with self._lock:
            done = self._fits.get(name)
            return self._running.get(name) == results and (done is None or done[0] != results)

    def _fit_later(self, name: str, results: int, games: Games, entrants: Sequence[str]) -> None:
        fit = _fit_in_process(games, entrants)
        with self._lock:
            self._fits[name] = (results, fit)
            if self._running.get(name) == results:
                del self._running[name]


def _fit_in_process(games: Games, entrants: Sequence[str]) -> BTFit | None:
    """The fit in a child process: pure Python for a minute, it would hold this process's GIL
    and slow every page meanwhile. A daemon, so it never holds up the end of the site."""
    context = multiprocessing.get_context("spawn")  # no fork of a threaded server
    receive, send = context.Pipe(duplex=False)
    child = context.Process(
        target=_fit_to_pipe, args=(send, games, tuple(entrants)), name="arena-web-fit", daemon=True
    )
    child.start()
    send.close()
    try:
        fit: BTFit | None = receive.recv()
    except EOFError:  # the child died (killed, out of memory): no fit this time
        log.warning("the background Bradley-Terry fit ended without a result")
        fit = None
    finally:
        receive.close()
        child.join()
    return fit


def _fit_to_pipe(send: Connection, games: Games, entrants: Sequence[str]) -> None:
    send.send(_fit(games, entrants))
    send.close()


def _fit(games: Games, entrants: Sequence[str]) -> BTFit | None:
    try:
        return fit_bradley_terry(games, entrants=entrants)
    except RatingError:
        return None  # too few games yet to say anything
    except Exception:  # a background fit must not die silently
        log.exception("Bradley-Terry fit failed")
        return None
