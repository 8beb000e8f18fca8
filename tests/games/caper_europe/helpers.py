"""Small builders the Caper: Europe tests share: play an action text, set up a seat's turn."""

from __future__ import annotations

from typing import Any

from arena.games.caper_common.draft import Kind
from arena.games.caper_europe.catalogue import CATALOGUE
from arena.games.caper_europe.rules import apply, legal_actions
from arena.games.caper_europe.scenario import scenario
from arena.games.caper_europe.scoring import end_points, score
from arena.games.caper_europe.state import State, action_text, parse_action

THIEF_FILLERS = (("tourist", "mime"), ("dame", "gentleman"))
GEAR_FILLERS = (("skeleton_key", "skeleton_key"), ("disguise_kit", "disguise_kit"))


def play(state: State, text: str) -> State:
    return apply(state, parse_action(text))


def legal_texts(state: State) -> list[str]:
    return [action_text(action) for action in legal_actions(state)]


def turn(card: str, **options: Any) -> State:
    """Seat 0 to play `card` (holding two more cards, as does seat 1, so no round ends): a Thief
    in round 3 (seat 0 plays first), a Gear in round 2 (seat 0 answers). 3 coins each (4 left
    in the supply) unless `coins` says otherwise."""
    thief = CATALOGUE[card].kind is Kind.THIEF
    fillers = THIEF_FILLERS if thief else GEAR_FILLERS
    options.setdefault("coins", (3, 3))
    options.setdefault("round", 3 if thief else 2)
    options.setdefault("to_move", 0)
    options.setdefault("hands", ((card, *fillers[0]), fillers[1]))
    return scenario(**options)


def after(text: str, **options: Any) -> State:
    """The state after seat 0 plays `text` on its turn (see `turn`)."""
    return play(turn(parse_action(text).card, **options), text)


def card_points(state: State, seat: int, location: int, card: str) -> int:
    """The end points one copy of `card` in `seat`'s crew at `location` scores (section 10)."""
    winners = score(state).winners
    target = CATALOGUE[card]
    return sum(end_points(state, icon, seat, location, winners) for icon in target.end_effects)
