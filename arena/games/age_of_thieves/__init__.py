"""Age of Thieves (Wettstreit der Diebe), rules docs/rules/age-of-thieves.md.

The data layer holds the reference board Hadria-R1, the 84 action cards (70 general), the
23 events, the 6 thieves and the pieces, each entry with its provenance ([R] rulebook or
[PROPOSAL] of the spec), loaded from versioned JSON files in `data/` and validated on load.
The setup of section 4 is a pure function over them, drawing from the named random streams of
section 22.7. The rules engine `AGE_OF_THIEVES` (game.py) runs a game on them as a queue of
steps and one decision at a time (engine.py).
"""

from arena.games.age_of_thieves.board import (
    OUTER,
    Board,
    District,
    Feature,
    Node,
    NodeKind,
    clockwise,
)
from arena.games.age_of_thieves.catalogue import (
    ActionCard,
    CardKind,
    Catalogue,
    Deck,
    Event,
    Thief,
    catalogue,
    load_catalogue,
)
from arena.games.age_of_thieves.components import (
    CityTile,
    Components,
    Piece,
    Timing,
    components,
    load_components,
)
from arena.games.age_of_thieves.datafile import DataError, Provenance, Source, Tag, Versions
from arena.games.age_of_thieves.game import AGE_OF_THIEVES, AgeOfThievesGame
from arena.games.age_of_thieves.hadria import districts, hadria, load_board
from arena.games.age_of_thieves.setup import Setup, setup
from arena.games.age_of_thieves.streams import Streams

__all__ = [
    "AGE_OF_THIEVES",
    "OUTER",
    "ActionCard",
    "AgeOfThievesGame",
    "Board",
    "CardKind",
    "Catalogue",
    "CityTile",
    "Components",
    "DataError",
    "Deck",
    "District",
    "Event",
    "Feature",
    "Node",
    "NodeKind",
    "Piece",
    "Provenance",
    "Setup",
    "Source",
    "Streams",
    "Tag",
    "Thief",
    "Timing",
    "Versions",
    "catalogue",
    "clockwise",
    "components",
    "districts",
    "hadria",
    "load_board",
    "load_catalogue",
    "load_components",
    "setup",
]
