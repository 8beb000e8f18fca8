"""Caper: Europe (the second edition): a pure rules engine (standard library only), built from
`docs/rules/caper-europe.md` (rules, every card of the four cities, rulings R1-R32).

Where the spec leaves the engine a choice, it does this:
- A play names its burn target (R17) and the type a `GRAB ?` takes (R10) in the action itself:
  every card with such a choice has no other one-shot, so the options are known before the play.
- When a burn undoes a `GRAB ?` and the victim holds more than one type of token, the victim
  chooses which token goes back with a `return <good>` action right after the burner's play has
  resolved. Nothing later in that resolution reads or moves goods, so this order is unseen.
- A Gear-round discard gains its coin before its discard-area triggers fire (the card's own
  effect before the combos it triggers, as in R14).
- Seat 0 is the player the Intro symbol points at (R3); the referee decides who sits there.
- All 12 goods tokens are dealt at setup and none ever goes back to the box, so conservation
  counts the tokens beside the Locations and in the hideouts.
"""

from arena.games.caper_europe.cards import Basis, Card, City
from arena.games.caper_europe.catalogue import CATALOGUE
from arena.games.caper_europe.effects import Colour, Good
from arena.games.caper_europe.game import CAPER_EUROPE, CaperEuropeGame
from arena.games.caper_europe.observation import EuropeObservation, sample_state
from arena.games.caper_europe.scoring import ScoreSheet, score
from arena.games.caper_europe.state import Action, ActionKind, State

__all__ = [
    "CAPER_EUROPE",
    "CATALOGUE",
    "Action",
    "ActionKind",
    "Basis",
    "CaperEuropeGame",
    "Card",
    "City",
    "Colour",
    "EuropeObservation",
    "Good",
    "ScoreSheet",
    "State",
    "sample_state",
    "score",
]
