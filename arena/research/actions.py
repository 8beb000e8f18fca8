"""Every game's actions as one fixed, numbered table: the discrete action space of both adapters.

A learner needs the same number for the same action in every state, so the table enumerates what
the rules could ever ask for (a superset of what is legal anywhere), built once per game from its
card and board data. A legal action missing from the table is a bug here, reported by name.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from functools import cache
from itertools import combinations_with_replacement, product
from typing import Any

from arena.games.age_of_thieves import catalogue, hadria
from arena.games.age_of_thieves.state import JEWELS
from arena.games.age_of_thieves.state import Action as ThievesAction
from arena.games.caper import cards as caper_cards
from arena.games.caper.state import MAX_THIEVES_PER_LOCATION
from arena.games.caper.state import Action as CaperAction
from arena.games.caper.state import ActionKind as CaperKind
from arena.games.caper_common.draft import Kind
from arena.games.caper_europe.catalogue import CATALOGUE as EUROPE_CATALOGUE
from arena.games.caper_europe.effects import Good
from arena.games.caper_europe.state import Action as EuropeAction
from arena.games.caper_europe.state import ActionKind as EuropeKind

LOCATIONS = range(3)
POSITIONS = range(MAX_THIEVES_PER_LOCATION)  # a Thief's index at a Location, either edition
TARGETS = (-1, *POSITIONS)  # no flip or burn target, or an opponent's Thief
MAX_AP = 20  # Age of Thieves action points named by `ap <n>`: 12 is the most seen in play
AOT_SEATS = range(4)


class ActionTable:
    """A bijection between a game's actions and 0 ... size - 1."""

    def __init__(self, game_id: str, actions: Iterable[Hashable]) -> None:
        self.game_id = game_id
        self.actions: tuple[Any, ...] = tuple(dict.fromkeys(actions))
        self._index = {action: i for i, action in enumerate(self.actions)}

    @property
    def size(self) -> int:
        return len(self.actions)

    def index(self, action: Hashable) -> int:
        """`action`'s number; `KeyError` naming it if the table lacks it (a bug in this module)."""
        try:
            return self._index[action]
        except KeyError:
            raise KeyError(f"{self.game_id} action {action} is not in the action table") from None

    def indices(self, actions: Sequence[Hashable]) -> list[int]:
        return [self.index(action) for action in actions]

    def action(self, number: int) -> Any:
        """The action numbered `number`; `ValueError` for a number outside the table."""
        if not 0 <= number < self.size:
            raise ValueError(f"action {number} is outside 0-{self.size - 1} for {self.game_id}")
        return self.actions[number]


def _caper() -> list[CaperAction]:
    names = [card.name for card in caper_cards.THIEVES]
    gear = [card.name for card in caper_cards.GEAR]
    found = [
        CaperAction(CaperKind.THIEF, n, loc, -1, t)
        for n in names
        for loc in LOCATIONS
        for t in TARGETS
    ]
    for kind in (CaperKind.GEAR, CaperKind.REPLAY):
        found += [
            CaperAction(kind, n, loc, thief, t)
            for n, loc, thief, t in product(gear, LOCATIONS, POSITIONS, TARGETS)
        ]
    found += [CaperAction(CaperKind.DISCARD, n) for n in names + gear]
    found.append(CaperAction(CaperKind.PASS))
    for pool in (names, gear):  # a pass gives two cards of one round's kind
        found += [CaperAction(CaperKind.GIVE, a, other=b) for a, b in product(pool, pool)]
        pairs = combinations_with_replacement(sorted(pool), 2)
        found += [CaperAction(CaperKind.SEND, a, other=b) for a, b in pairs]
    return found


def _europe() -> list[EuropeAction]:
    thieves = [c.id for c in EUROPE_CATALOGUE.values() if c.kind is Kind.THIEF]
    gear = [c.id for c in EUROPE_CATALOGUE.values() if c.kind is Kind.GEAR]
    goods = (-1, *(int(good) for good in Good))
    found = [
        EuropeAction(EuropeKind.THIEF, n, loc, -1, t, g)
        for n, loc, t, g in product(thieves, LOCATIONS, TARGETS, goods)
    ]
    found += [
        EuropeAction(EuropeKind.GEAR, n, loc, thief, t, g)
        for n, loc, thief, t, g in product(gear, LOCATIONS, POSITIONS, TARGETS, goods)
    ]
    found += [EuropeAction(EuropeKind.DISCARD, n) for n in thieves + gear]
    found += [EuropeAction(EuropeKind.RETURN, good=int(good)) for good in Good]
    return found


# Age of Thieves: each verb's argument comes from one domain (state.DECISIONS lists them).
CARD_VERBS = (
    "plan", "under", "decline", "discard", "resolve", "sneak", "sprint", "clever", "cunning",
    "special", "general", "give",
)  # fmt: skip
SPACE_VERBS = ("step", "sewer", "space", "fire", "to", "close", "target", "jewel")
BARE_VERBS = ("done", "keep", "pocket", "stop", "swap")
TILES = ("informer", "agent", "pocket", "trinket")  # what G14 takes from a thief's sheet


def _age_of_thieves() -> list[ThievesAction]:
    cards = [card.id for card in catalogue().cards]
    spaces = [node.id for node in hadria().nodes]
    found = [ThievesAction(verb, card) for verb in CARD_VERBS for card in cards]
    found += [ThievesAction(verb, space) for verb in SPACE_VERBS for space in spaces]
    found += [ThievesAction(verb) for verb in BARE_VERBS]
    found += [ThievesAction("ap", str(n)) for n in range(MAX_AP + 1)]
    found += [ThievesAction("target", str(seat)) for seat in AOT_SEATS]
    found += [ThievesAction("jewel", jewel) for jewel in JEWELS]
    found += [ThievesAction("take", what) for what in (*JEWELS, "tile")]
    found += [ThievesAction("take", f"{s}:{j}") for s, j in product(spaces, JEWELS)]
    found += [ThievesAction("steal", f"{seat}:{j}") for seat, j in product(AOT_SEATS, JEWELS)]
    found += [ThievesAction("tile", f"{seat}:{t}") for seat, t in product(AOT_SEATS, TILES)]
    return found


_BUILDERS: dict[str, Callable[[], Sequence[Hashable]]] = {
    "caper": _caper,
    "caper-europe": _europe,
    "age-of-thieves": _age_of_thieves,
}


@cache
def action_table(game_id: str) -> ActionTable:
    """The fixed table of `game_id`'s actions (the same for all its cities and player counts)."""
    return ActionTable(game_id, _BUILDERS[game_id]())
