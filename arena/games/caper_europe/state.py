"""Immutable values of a Caper: Europe game: the state, its parts, and actions with their text form.

Section numbers and rulings (R1...) refer to `docs/rules/caper-europe.md`.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from arena.games.api import InvalidActionError
from arena.games.caper_europe.cards import Card, City
from arena.games.caper_europe.catalogue import CATALOGUE
from arena.games.caper_europe.effects import Good

MAX_THIEVES_PER_LOCATION = 3
MAX_GEAR_PER_THIEF = 3
TRACK_END = 4  # R22: positions -4 ... +4, positive toward seat 0
TOKENS_PER_TYPE = 4  # 12 stolen-goods tokens: 4 diamonds, 4 paintings, 4 antiques
NONE = -1  # an unused index field of an action; `State.returning` when nothing is pending

Goods = tuple[int, ...]  # tokens per type, indexed by `Good`
NO_GOODS: Goods = (0, 0, 0)
Placed = tuple[Card, int]  # a card in a crew and the index of the Thief it belongs to
Crew = tuple[Placed, ...]  # one player's cards at one Location, in the order they joined
Side = tuple[Crew, ...]  # one crew per Location
Hand = tuple[Card, ...]  # sorted by id, so a hand's order tells nothing


class State(NamedTuple):
    """A whole game at one moment, hidden parts included. Never shown to a bot as is."""

    city: City
    locations: tuple[Card, Card, Card]
    round: int  # index into ROUNDS; FINAL_ROUND once the game is over
    to_move: int  # the seat to act, -1 when the game is over
    hands: tuple[Hand, Hand]
    thief_deck: tuple[Card, ...]  # undealt, top first
    gear_deck: tuple[Card, ...]
    crews: tuple[Side, ...]  # [seat][location]
    markers: tuple[int, ...]  # caper-track position per Location (R22)
    goods: tuple[Goods, ...]  # tokens beside each Location, face up
    hq_goods: tuple[Goods, ...]  # tokens in each seat's hideout
    coins: tuple[int, int]  # in hand
    hq_coins: tuple[int, int]  # laundered into each hideout (London)
    supply: int
    discards: tuple[tuple[Card, ...], tuple[Card, ...]]  # face up, in the order discarded
    hands_known: bool  # a swap this round has shown each player both hands
    # A burn undid a `GRAB ?` and the victim (`to_move`) chooses which token goes back to this
    # Location; `NONE` otherwise.
    returning: int


class ActionKind(IntEnum):
    THIEF = 0  # place a Thief: card, location, optional burn target and grabbed good
    GEAR = 1  # play a Gear: card, location, thief, optional burn target and grabbed good
    DISCARD = 2  # discard a card from hand for a coin (Gear rounds)
    RETURN = 3  # the victim of a burn returns a token of this good (a `GRAB ?` undone)


class Action(NamedTuple):
    """A decision. `location` 0-2; `thief` the index of one of your Thieves at that Location (in
    the order they were played); `target` the index of the opponent's Thief whose topmost Gear
    is burned; `good` the type taken by `GRAB ?` or returned. The field order is the stable sort
    order of legal actions."""

    kind: ActionKind
    card: str = ""
    location: int = NONE
    thief: int = NONE
    target: int = NONE
    good: int = NONE  # a `Good`, or NONE

    def __str__(self) -> str:
        return action_text(self)


_VERBS = {kind: kind.name.lower() for kind in ActionKind}
_KINDS = {name: kind for kind, name in _VERBS.items()}


def action_text(action: Action) -> str:
    """The stable text form: `thief smuggler at 2 grab painting`, `gear blazeblaster at 0/1 burn 2`,
    `discard skeleton_key`, `return diamond`."""
    words = [_VERBS[action.kind]]
    if action.card:
        words.append(action.card)
    if action.location != NONE:
        words += ["at", str(action.location) + ("" if action.thief == NONE else f"/{action.thief}")]
    if action.target != NONE:
        words += ["burn", str(action.target)]
    if action.good != NONE:
        words += ["grab" if action.kind is not ActionKind.RETURN else "", str(Good(action.good))]
    return " ".join(word for word in words if word)


def parse_action(text: str) -> Action:
    """The inverse of `action_text`; raises `InvalidActionError` naming the malformed part."""
    words = text.split()
    if not words or words[0] not in _KINDS:
        expected = ", ".join(_KINDS)
        raise InvalidActionError(f"unknown action in {text!r}: expected one of {expected}")
    kind = _KINDS[words[0]]
    if kind is ActionKind.RETURN:
        if len(words) != 2:
            raise InvalidActionError(f"expected 'return <good>', got {text!r}")
        return Action(kind, good=_good(words[1], text))
    if len(words) < 2 or words[1] not in CATALOGUE:
        raise InvalidActionError(f"unknown card in {text!r}")
    fields = _keywords(words[2:], text)
    location, _, thief = fields.get("at", "").partition("/")
    action = Action(
        kind,
        words[1],
        _index(location, "location", text),
        _index(thief, "thief", text),
        _index(fields.get("burn", ""), "burn target", text),
        _good(fields["grab"], text) if "grab" in fields else NONE,
    )
    if action_text(action) != " ".join(words):
        raise InvalidActionError(
            f"not in the canonical form: {text!r} (is {action_text(action)!r})"
        )
    return action


def _keywords(words: list[str], text: str) -> dict[str, str]:
    if len(words) % 2:
        raise InvalidActionError(f"a keyword without a value in {text!r}")
    fields = dict(zip(words[::2], words[1::2], strict=True))
    unknown = set(fields) - {"at", "burn", "grab"}
    if unknown or len(fields) * 2 != len(words):
        raise InvalidActionError(f"unknown or repeated keyword in {text!r}: use at, burn, grab")
    return fields


def _index(word: str, what: str, text: str) -> int:
    if not word:
        return NONE
    if not word.isdigit() or len(word) > 1:
        raise InvalidActionError(f"{what} must be a digit, got {word!r} in {text!r}")
    return int(word)


def _good(word: str, text: str) -> int:
    try:
        return Good[word.upper()]
    except KeyError:
        goods = ", ".join(str(good) for good in Good)
        raise InvalidActionError(f"unknown stolen good {word!r} in {text!r}: {goods}") from None
