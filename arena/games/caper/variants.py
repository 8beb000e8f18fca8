"""How cards reach the Masterminds' hands with 3 players (the Snitch) and 4 (teams): section 12,
rulings V1-V3 and V6-V8. Everything else a Mastermind does is the 2-player game of `rules`.

The Snitch (seat 2) and the Lookouts (seats 2 and 3) only pass cards: their decisions are GIVE
and SEND actions. Passes nobody else sees are logged in `State.passes` for the passer's view.
"""

from __future__ import annotations

from itertools import combinations
from operator import attrgetter

from arena.games.api import ConfigError
from arena.games.caper import table
from arena.games.caper.cards import CATALOGUE, Card, Kind
from arena.games.caper.state import (
    CREAM_LOOKOUT,
    MINT_LOOKOUT,
    NONE,
    ROUNDS,
    SNITCH,
    Action,
    ActionKind,
    Hand,
    State,
    action_text,
    replaced,
)
from arena.games.caper_common.draft import with_seat

PLAYER_COUNTS = (2, 3, 4)
PASS_KINDS = (ActionKind.GIVE, ActionKind.SEND)
# Enum members read on every pass, as plain names: on Python 3.11 each read through its class
# goes through `EnumType.__getattr__`, several times the cost of reading a global.
_GIVE, _SEND = PASS_KINDS


def players_setting(value: object) -> int:
    """The configured number of players; `ConfigError` unless it is 2, 3 or 4."""
    text = str(value).strip()
    if isinstance(value, bool) or not text.isdigit() or int(text) not in PLAYER_COUNTS:
        raise ConfigError(f"players must be 2, 3 or 4, not {value!r}")
    return int(text)


def deal_round(state: State, number: int) -> State:
    """V1: the Snitch deck, its top two cards dealt unseen (the first to the round's first
    player); V6: each Lookout is dealt the round's card count, Cream's Lookout from the top."""
    kind, size, first = ROUNDS[number]
    cards = state.thief_deck if kind is Kind.THIEF else state.gear_deck
    dealt, rest = cards[: 2 * size], cards[2 * size :]
    if kind is Kind.THIEF:
        state = state._replace(thief_deck=rest)
    else:
        state = state._replace(gear_deck=rest)
    passer = SNITCH if state.players == 3 else CREAM_LOOKOUT  # the Snitch or Cream's Lookout
    state = state._replace(round=number, to_move=passer, hands_known=False, passes=())
    if state.players == 3:
        unseen = ((dealt[0],), (dealt[1],))
        hands = unseen if first == 0 else (unseen[1], unseen[0])
        return state._replace(hands=hands, snitch_deck=dealt[2:])
    lookouts = (_sorted(dealt[:size]), _sorted(dealt[size:]))
    return state._replace(hands=((), ()), lookout_hands=lookouts)


def next_turn(state: State) -> State | None:
    """Both Masterminds have acted: the next turn, or None when the round ends (V3, V8)."""
    if state.players == 3:
        return state._replace(to_move=SNITCH) if state.snitch_deck else None
    if not state.lookout_hands[0]:
        return None
    # V7: each Mastermind passes its remaining card back to its own Lookout.
    returned = tuple((seat, (state.hands[seat][0].name,)) for seat in (0, 1))
    lookouts = (
        _sorted(state.lookout_hands[0] + state.hands[0]),
        _sorted(state.lookout_hands[1] + state.hands[1]),
    )
    changes = {
        "hands": ((), ()),
        "lookout_hands": lookouts,
        "passes": state.passes + returned,
        "to_move": CREAM_LOOKOUT,
    }
    return replaced(state, changes)


def pass_actions(state: State) -> list[Action]:
    """The Snitch's or a Lookout's choices, sorted and without repeats."""
    if state.players == 3:
        a, b = state.snitch_deck[0].name, state.snitch_deck[1].name
        gifts = {(a, b), (b, a)}
        return [_pass(_GIVE, mine, theirs) for mine, theirs in sorted(gifts)]
    hand = state.lookout_hands[state.to_move - CREAM_LOOKOUT]
    pairs = sorted({(x.name, y.name) for x, y in combinations(hand, 2)})
    return [_pass(_SEND, x, y) for x, y in pairs]


def _pass(kind: ActionKind, card: str, other: str) -> Action:
    """`Action(kind, card, other=other)` without the keyword handling of its constructor."""
    return tuple.__new__(Action, (kind, card, NONE, NONE, NONE, other))


def apply_pass(state: State, action: Action) -> State:
    """A legal GIVE or SEND: the cards go to the Masterminds' hands, then the next seat acts."""
    passer, cards = state.to_move, (action.card, action.other)
    passes = (*state.passes, (passer, cards))
    if action.kind is _GIVE:
        hands = (
            _sorted((*state.hands[0], CATALOGUE[action.card])),
            _sorted((*state.hands[1], CATALOGUE[action.other])),
        )
        changes = {
            "hands": hands,
            "snitch_deck": state.snitch_deck[2:],
            "passes": passes,
            "to_move": ROUNDS[state.round].first,
        }
        return replaced(state, changes)
    team = passer - CREAM_LOOKOUT
    lookout = _without(state.lookout_hands[team], cards)
    receiver = 1 - team  # V7: to the opposing Mastermind
    received = _sorted(state.hands[receiver] + tuple(CATALOGUE[name] for name in cards))
    changes = {
        "hands": with_seat(state.hands, receiver, received),
        "lookout_hands": with_seat(state.lookout_hands, team, lookout),
        "passes": passes,
        "to_move": MINT_LOOKOUT if passer == CREAM_LOOKOUT else ROUNDS[state.round].first,
    }
    return replaced(state, changes)


def pass_violation(state: State, action: Action) -> str:
    """Why a GIVE or SEND, or any action at a passer's turn, breaks V2 or V7; "" if legal."""
    passer = state.to_move >= SNITCH
    if not passer:
        return "only the Snitch gives cards and only a Lookout sends them; a Mastermind plays"
    expected = ActionKind.GIVE if state.players == 3 else ActionKind.SEND
    role = "the Snitch" if state.players == 3 else "a Lookout"
    if action.kind is not expected:
        verb = "give the two cards it drew (V2)" if state.players == 3 else "send two cards (V7)"
        return f"{role} plays no cards: it must {verb}"
    if (action.location, action.thief, action.target) != (NONE, NONE, NONE):
        return f"{role}'s action names two cards and nothing else"
    if action.kind is ActionKind.GIVE:
        drawn = sorted(card.name for card in state.snitch_deck[:2])
        if sorted((action.card, action.other)) != drawn:
            return f"the Snitch drew {' and '.join(drawn)}: give those, one to each Mastermind"
        return ""
    if action.card > action.other:
        return "name the two cards in name order"
    hand = state.lookout_hands[state.to_move - CREAM_LOOKOUT]
    try:
        _without(hand, (action.card, action.other))
    except ValueError:
        return "the Lookout does not hold both of these cards"
    return ""


def seen_text(state: State, action: Action, seat: int) -> str:
    """A pass is face down: only its passer sees which cards went where (V4, V9)."""
    if action.kind not in PASS_KINDS or state.to_move == seat:
        return action_text(action)
    return "give two cards" if action.kind is ActionKind.GIVE else "send two cards"


def can_play_gear(state: State, seat: int) -> bool:
    """Whether `seat` can play any Gear of its hand: a Lookout's Mastermind may discard only
    when it cannot (V7)."""
    coins = state.coins[seat]
    for location in range(3):
        if any(table.has_room(stack) for stack in state.board[seat][location]):
            modifiers = table.cost_modifiers(state, seat, location)
            if any(table.cost_with(modifiers, card) <= coins for card in state.hands[seat]):
                return True
    return False


def _without(hand: Hand, names: tuple[str, ...]) -> Hand:
    cards = list(hand)
    for name in names:
        index = next((i for i, card in enumerate(cards) if card.name == name), None)
        if index is None:
            raise ValueError(name)
        del cards[index]
    return tuple(cards)


def _sorted(cards: tuple[Card, ...]) -> Hand:
    return tuple(sorted(cards, key=_name))


_name = attrgetter("name")
