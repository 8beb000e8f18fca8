"""Every Thief, Gear, replay and discard action of the box without a flip target, built once.

Listing legal actions is the engine's hottest path: it copies references to these instead of
building a tuple per action. Actions are immutable values, so a shared one is the same action
as a new one, and `apply` finds a listed one by identity before comparing fields.
"""

from __future__ import annotations

from arena.games.caper.cards import GEAR, THIEVES
from arena.games.caper.state import MAX_THIEVES_PER_LOCATION, Action, ActionKind

LOCATIONS = range(3)
THIEF_POSITIONS = range(MAX_THIEVES_PER_LOCATION)

# A Thief placed at each Location: THIEF_AT[name][location].
THIEF_AT: dict[str, tuple[Action, ...]] = {
    card.name: tuple(Action(ActionKind.THIEF, card.name, location) for location in LOCATIONS)
    for card in THIEVES
}
# A Gear played or replayed on each Thief: ON_THIEF[kind][name][location][thief].
ON_THIEF: dict[ActionKind, dict[str, tuple[tuple[Action, ...], ...]]] = {
    kind: {
        card.name: tuple(
            tuple(Action(kind, card.name, location, thief) for thief in THIEF_POSITIONS)
            for location in LOCATIONS
        )
        for card in GEAR
    }
    for kind in (ActionKind.GEAR, ActionKind.REPLAY)
}
DISCARD: dict[str, Action] = {card.name: Action(ActionKind.DISCARD, card.name) for card in GEAR}
