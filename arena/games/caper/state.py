"""Immutable values of a Caper game: the state, its parts, and actions with their text form."""

from __future__ import annotations

from enum import IntEnum
from typing import Any, NamedTuple

from arena.games.api import InvalidActionError
from arena.games.caper.cards import CATALOGUE, Card, City
from arena.games.caper_common.coins import TOTAL_COINS as TOTAL_COINS
from arena.games.caper_common.draft import FINAL_ROUND as FINAL_ROUND
from arena.games.caper_common.draft import ROUNDS as ROUNDS
from arena.games.caper_common.draft import Round as Round

SEATS = (0, 1)  # the Masterminds: the only seats with a table, coins and a discard area
SEAT_NAMES = ("Cream", "Mint")
SNITCH = 2  # 3 players (section 12.1)
CREAM_LOOKOUT, MINT_LOOKOUT = 2, 3  # 4 players (section 12.2): seat - 2 is the Lookout's team
ROLE_NAMES = {  # seat names by number of players
    2: ("Cream", "Mint"),
    3: ("Cream", "Mint", "Snitch"),
    4: ("Cream", "Mint", "Cream Lookout", "Mint Lookout"),
}
MAX_THIEVES_PER_LOCATION = 3
MAX_GEAR_PER_THIEF = 3
# R1 (Cream starts every Thief round, Mint every Gear round) is the shared table `ROUNDS`.

Placed = tuple[Card, bool]  # a card on the table and whether it is flipped face down
Stack = tuple[Placed, ...]  # a Thief (index 0) and its Gear, bottom to top
Crew = tuple[Stack, ...]  # one side's Thieves at one Location, in the order played
Side = tuple[Crew, Crew, Crew]
Hand = tuple[Card, ...]  # sorted by name, so a hand's order tells nothing


class Pending(NamedTuple):
    """An end-of-game ability (R7) still to resolve."""

    seat: int
    card: str
    location: int


class State(NamedTuple):
    """A whole Caper game at one moment, hidden parts included. Never shown to a bot as is."""

    city: City
    locations: tuple[Card, Card, Card]
    round: int  # index into ROUNDS; FINAL_ROUND once every round has been played
    to_move: int  # the seat to act, -1 when the game is over
    hands: tuple[Hand, Hand]
    thief_deck: tuple[Card, ...]  # undealt, top first
    gear_deck: tuple[Card, ...]
    board: tuple[Side, Side]
    coins: tuple[int, int]
    supply: int
    laundered: tuple[int, int]  # coins in each discard area (Laundromatic)
    discards: tuple[tuple[Card, ...], tuple[Card, ...]]  # face up, in the order discarded
    hands_known: bool  # a swap this round has shown each player both hands
    pending: tuple[Pending, ...]  # R7 abilities left, the next one first
    # The variants of section 12; a 2-player game leaves these at their defaults.
    players: int = 2
    snitch_deck: tuple[Card, ...] = ()  # 3 players: the round's Snitch deck left, top first (V1)
    lookout_hands: tuple[Hand, Hand] = ((), ())  # 4 players: Cream's and Mint's Lookout (V6)
    passes: tuple[tuple[int, tuple[str, ...]], ...] = ()  # this round's hidden passes (seat, cards)


_FIELDS = State._fields


def replaced(state: State, changes: dict[str, Any]) -> State:
    """`state._replace(**changes)` without its keyword packing: the hot paths of the rules
    build most states this way."""
    return tuple.__new__(State, map(changes.get, _FIELDS, state))


class ActionKind(IntEnum):
    THIEF = 0  # place a Thief: card, location, optional flip target (The Illusionist)
    GEAR = 1  # play a Gear: card, location, thief, optional flip target (Blazeblaster)
    DISCARD = 2  # discard a Gear for a coin
    REPLAY = 3  # R7: play a Gear from your discard area for free
    PASS = 4  # decline an optional ability
    GIVE = 5  # the Snitch: `card` to Cream, `other` to Mint (V2)
    SEND = 6  # a Lookout: `card` and `other` to the opposing Mastermind, in name order (V7)


NONE = -1  # an unused index field of an action


class Action(NamedTuple):
    """A decision. Indices: `location` 0-2; `thief` is the position of one of your Thieves at that
    Location (in the order they were played); `target` the position of the opponent's Thief whose
    top card is flipped. The field order gives the stable sort order of legal actions."""

    kind: ActionKind
    card: str = ""
    location: int = NONE
    thief: int = NONE
    target: int = NONE
    other: str = ""  # the second card of a GIVE or SEND

    def __str__(self) -> str:
        return action_text(self)


_VERBS = {kind: kind.name.lower() for kind in ActionKind}


def action_text(action: Action) -> str:
    """The stable text form: `thief The Dame at 2`, `gear Blazeblaster at 0/1 flip 2`, `pass`,
    `give The Dame to cream, The Mime to mint`, `send Skeleton Key + Smoke Screen`."""
    if action.kind is ActionKind.GIVE:
        return f"give {action.card} to cream, {action.other} to mint"
    if action.kind is ActionKind.SEND:
        return f"send {action.card} + {action.other}"
    words = [_VERBS[action.kind]]
    if action.card:
        words.append(action.card)
    if action.location != NONE:
        place = str(action.location)
        if action.thief != NONE:
            place += f"/{action.thief}"
        words.append(f"at {place}")
    if action.target != NONE:
        words.append(f"flip {action.target}")
    return " ".join(words)


def parse_action(text: str) -> Action:
    """The inverse of `action_text`; raises `InvalidActionError` naming the malformed part."""
    verb, _, rest = text.strip().partition(" ")
    kinds = {name: kind for kind, name in _VERBS.items()}
    if verb not in kinds:
        raise InvalidActionError(f"unknown action {verb!r}: expected one of {', '.join(kinds)}")
    kind = kinds[verb]
    if kind is ActionKind.GIVE or kind is ActionKind.SEND:
        return _parse_pass(kind, rest, text)
    rest, _, target = rest.partition(" flip ")
    card, _, place = rest.partition(" at ")
    if kind is ActionKind.PASS:
        if text.strip() != "pass":
            raise InvalidActionError(f"'pass' takes nothing more, got {text!r}")
        return Action(kind)
    if card not in CATALOGUE:
        raise InvalidActionError(f"unknown card {card!r} in {text!r}")
    location, _, thief = place.partition("/")
    return Action(
        kind,
        card,
        _index(location, "location", text),
        _index(thief, "thief", text),
        _index(target, "flip target", text),
    )


def _parse_pass(kind: ActionKind, rest: str, text: str) -> Action:
    """`give A to cream, B to mint` (either order) or `send A + B` (sorted by name)."""
    if kind is ActionKind.SEND:
        first, plus, second = rest.partition(" + ")
        if not plus:
            raise InvalidActionError(f"expected 'send <card> + <card>', got {text!r}")
        cards = sorted((first, second))
    else:
        gifts = dict(_gift(part, text) for part in rest.split(", "))
        if set(gifts) != {"cream", "mint"}:
            raise InvalidActionError(
                f"expected 'give <card> to cream, <card> to mint', got {text!r}"
            )
        cards = [gifts["cream"], gifts["mint"]]
    for card in cards:
        if card not in CATALOGUE:
            raise InvalidActionError(f"unknown card {card!r} in {text!r}")
    return Action(kind, cards[0], other=cards[1])


def _gift(part: str, text: str) -> tuple[str, str]:
    card, to, seat = part.rpartition(" to ")
    if not to:
        raise InvalidActionError(f"expected '<card> to cream' or '<card> to mint' in {text!r}")
    return seat, card


def _index(word: str, what: str, text: str) -> int:
    if not word:
        return NONE
    if not word.isdigit() or len(word) > 2:
        raise InvalidActionError(f"{what} must be a small number, got {word!r} in {text!r}")
    return int(word)
