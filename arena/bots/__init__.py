"""Built-in bots that run inside the worker, with no network hop.

`make_bot("search@50")` builds a bot from its registry name; a `@<ms>` suffix sets the move
budget of bots that search.
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
MAX_BUDGET_MS = 60_000.0


class BotSpecError(ValueError):
    """A bot name given to `make_bot` cannot be turned into a bot."""


class UnknownBotError(BotSpecError):
    """No built-in bot has this name."""


def make_bot(spec: str) -> Bot:
    """The built-in bot named `spec`, e.g. "greedy", "search" or "search@50" (50 ms a move)."""
    name, has_budget, budget = spec.strip().partition("@")
    if name not in BUILTIN_BOTS:
        known = ", ".join(sorted(BUILTIN_BOTS))
        raise UnknownBotError(f"unknown bot {name!r}: known bots are {known}")
    if not has_budget:
        return BUILTIN_BOTS[name]()
    if name not in BUDGETED_BOTS:
        takes = ", ".join(sorted(BUDGETED_BOTS))
        raise BotSpecError(f"bot {name!r} takes no '@<ms>' budget; only {takes} do")
    return BUDGETED_BOTS[name](_budget_ms(budget, spec))


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
    "make_bot",
]
