"""Every Thief, Gear and discard action of the box that names no burn target and no good, built
once. Listing legal actions is the engine's hottest path: it copies references to these instead
of building a tuple per action. Actions are immutable values, so a shared one is the same action
as a new one, and `apply` finds a listed one by identity before comparing fields.
"""

from __future__ import annotations

from arena.games.caper_europe.catalogue import GEAR, THIEVES
from arena.games.caper_europe.state import MAX_THIEVES_PER_LOCATION, Action, ActionKind

LOCATIONS = range(3)

# A Thief placed at each Location: THIEF_AT[id][location].
THIEF_AT: dict[str, tuple[Action, ...]] = {
    card.id: tuple(Action(ActionKind.THIEF, card.id, location) for location in LOCATIONS)
    for card in THIEVES
}
# A Gear played on each Thief: ON_THIEF[id][location][thief].
ON_THIEF: dict[str, tuple[tuple[Action, ...], ...]] = {
    card.id: tuple(
        tuple(
            Action(ActionKind.GEAR, card.id, location, thief)
            for thief in range(MAX_THIEVES_PER_LOCATION)
        )
        for location in LOCATIONS
    )
    for card in GEAR
}
DISCARD: dict[str, Action] = {
    card.id: Action(ActionKind.DISCARD, card.id) for card in (*THIEVES, *GEAR)
}
