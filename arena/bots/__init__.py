"""Built-in bots that run inside the worker, with no network hop.

`make_bot("search@50")` builds a bot from its registry name; a `@<ms>` suffix sets the move
budget of bots that search, a `#<n>` suffix a number of iterations instead: such a bot never
reads the clock, so its games replay exactly (tournaments that must be reproducible use it).
A `/<label>` suffix enters the same bot again under another name ("random/2"), e.g. to fill a
field for a benchmark or to check that a bot scores even against itself.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from arena.bots.base import Bot
from arena.bots.greedy import GreedyBot
from arena.bots.random_bot import RandomBot
from arena.bots.search import SearchBot

BUILTIN_BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "search": SearchBot,
}
BUDGETED_BOTS: dict[str, Callable[[float], Bot]] = {
    "search": lambda budget_ms: SearchBot(budget_ms=budget_ms),
}
ITERATED_BOTS: dict[str, Callable[[int], Bot]] = {
    "search": lambda iterations: SearchBot(iterations=iterations),
}
MAX_BUDGET_MS = 60_000.0
MAX_ITERATIONS = 1_000_000


class BotSpecError(ValueError):
    """A bot name given to `make_bot` cannot be turned into a bot."""


class UnknownBotError(BotSpecError):
    """No built-in bot has this name."""


def make_bot(spec: str) -> Bot:
    """The built-in bot named `spec`, e.g. "greedy", "search", "search@50" (50 ms a move) or
    "search#200" (200 iterations a move)."""
    spec = spec.strip().partition("/")[0]
    if "#" in spec:
        return _iterated_bot(spec)
    name, has_budget, budget = spec.partition("@")
    if name not in BUILTIN_BOTS:
        known = ", ".join(sorted(BUILTIN_BOTS))
        raise UnknownBotError(f"unknown bot {name!r}: known bots are {known}")
    if not has_budget:
        return BUILTIN_BOTS[name]()
    if name not in BUDGETED_BOTS:
        takes = ", ".join(sorted(BUDGETED_BOTS))
        raise BotSpecError(f"bot {name!r} takes no '@<ms>' budget; only {takes} do")
    return BUDGETED_BOTS[name](_budget_ms(budget, spec))


def builtin_name(spec: str) -> str:
    """The registry name inside a spec: "search" for "search@50", "search#200", "search/2"."""
    return spec.strip().partition("/")[0].partition("@")[0].partition("#")[0]


def _iterated_bot(spec: str) -> Bot:
    name, _, count = spec.partition("#")
    if name not in BUILTIN_BOTS:
        known = ", ".join(sorted(BUILTIN_BOTS))
        raise UnknownBotError(f"unknown bot {name!r}: known bots are {known}")
    if name not in ITERATED_BOTS:
        takes = ", ".join(sorted(ITERATED_BOTS))
        raise BotSpecError(f"bot {name!r} takes no '#<iterations>'; only {takes} do")
    if not count.isdigit() or not 0 < int(count) <= MAX_ITERATIONS:
        raise BotSpecError(
            f"bad iteration count in {spec!r}: expected a whole number in [1, {MAX_ITERATIONS}]"
        )
    return ITERATED_BOTS[name](int(count))


def _budget_ms(text: str, spec: str) -> float:
    try:
        budget = float(text)
    except ValueError:
        budget = math.nan
    if not 0 < budget <= MAX_BUDGET_MS:
        raise BotSpecError(
            f"bad budget in {spec!r}: expected milliseconds in (0, {MAX_BUDGET_MS:g}]"
        )
    return budget


__all__ = [
    "BUILTIN_BOTS",
    "Bot",
    "BotSpecError",
    "GreedyBot",
    "RandomBot",
    "SearchBot",
    "UnknownBotError",
    "builtin_name",
    "make_bot",
]
