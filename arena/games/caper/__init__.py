"""First-edition Caper: a pure rules engine (standard library only)."""

from arena.games.caper.cards import CATALOGUE, Card, City, Colour, Good, Kind
from arena.games.caper.game import CAPER, CaperGame
from arena.games.caper.observation import CaperObservation, sample_state
from arena.games.caper.scoring import ScoreSheet, best_goods_partition, score
from arena.games.caper.state import Action, ActionKind, State

__all__ = [
    "CAPER",
    "CATALOGUE",
    "Action",
    "ActionKind",
    "CaperGame",
    "CaperObservation",
    "Card",
    "City",
    "Colour",
    "Good",
    "Kind",
    "ScoreSheet",
    "State",
    "best_goods_partition",
    "sample_state",
    "score",
]
