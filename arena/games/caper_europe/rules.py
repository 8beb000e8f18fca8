"""How a game of Caper: Europe moves: setup (R1), legal actions, applying an action, and the round
structure (section 4) with its last-card discards (R4)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from arena.games.api import (
    Config,
    IllegalActionError,
    InvalidActionError,
)
from arena.games.caper_common import draft
from arena.games.caper_common.coins import TOTAL_COINS
from arena.games.caper_common.config import city_setting
from arena.games.caper_common.draft import FINAL_ROUND, ROUNDS, Kind, with_seat
from arena.games.caper_common.listed import LastState, is_listed
from arena.games.caper_europe import table
from arena.games.caper_europe.action_table import DISCARD, ON_THIEF, THIEF_AT
from arena.games.caper_europe.cards import CITIES, Card, deck
from arena.games.caper_europe.catalogue import CATALOGUE, GEAR, LOCATIONS, THIEVES
from arena.games.caper_europe.effects import GOODS
from arena.games.caper_europe.resolve import Work
from arena.games.caper_europe.state import (
    NO_GOODS,
    NONE,
    TOKENS_PER_TYPE,
    Action,
    ActionKind,
    Hand,
    State,
)
from arena.games.caper_europe.validation import violation

NO_CHOICE: tuple[int, ...] = (NONE,)
NO_THIEVES: list[int] = []
Place = tuple[int, Sequence[int], tuple[int, ...], tuple[int, ...]]
# The actions `legal_actions` listed last (a tuple: the caller may change the list it gets), for
# `apply` and `why_illegal` to accept one without checking it again.
LAST_LISTED = LastState()
_new_tuple = tuple.__new__
_FIELDS = State._fields

# Enum members read on every action, as plain names: on Python 3.11 each read through its
# class goes through `EnumType.__getattr__`, several times the cost of reading a global.
_THIEF_ROUND = Kind.THIEF
_PLACE, _PLAY, _DISCARD, _RETURN = (
    ActionKind.THIEF,
    ActionKind.GEAR,
    ActionKind.DISCARD,
    ActionKind.RETURN,
)


def create(config: Config, seed: int) -> State:
    """A new game in the configured city (`{"city": "paris"}` by default), shuffled by `seed` in
    the order of R1: Locations, Thieves, Gear, then the 12 stolen-goods tokens."""
    city = city_setting(config, CITIES, "Caper: Europe")
    rng = random.Random(seed)
    decks = [list(deck(cards, city)) for cards in (LOCATIONS, THIEVES, GEAR)]
    for cards in decks:
        rng.shuffle(cards)
    locations, thieves, gear = decks
    tokens = [good for good in GOODS for _ in range(TOKENS_PER_TYPE)]
    rng.shuffle(tokens)
    beside = tuple(
        tuple(tokens[4 * loc : 4 * loc + 4].count(good) for good in GOODS) for loc in range(3)
    )
    state = State(
        city=city,
        locations=(locations[0], locations[1], locations[2]),
        round=0,
        to_move=0,
        hands=((), ()),
        thief_deck=tuple(thieves),
        gear_deck=tuple(gear),
        crews=(((), (), ()), ((), (), ())),
        markers=(0, 0, 0),
        goods=beside,
        hq_goods=(NO_GOODS, NO_GOODS),
        coins=(0, 0),
        hq_coins=(0, 0),
        supply=TOTAL_COINS,
        discards=((), ()),
        hands_known=False,
        returning=NONE,
    )
    return _start_round(state, 0)


def legal_actions(state: State) -> list[Action]:
    """Every legal action, sorted by (kind, card, location, thief, target, good)."""
    if state.to_move < 0:
        return []
    seat = state.to_move
    if state.returning != NONE:
        held = table.goods_present(state.hq_goods[seat])
        actions = [Action(ActionKind.RETURN, good=good) for good in held]
    else:
        ids = sorted({card.id for card in state.hands[seat]})
        if ROUNDS[state.round].kind is _THIEF_ROUND:
            actions = _plays(state, seat, ids, _PLACE)
        else:
            actions = _plays(state, seat, ids, _PLAY)
            actions += [DISCARD[card_id] for card_id in ids]
    LAST_LISTED.keep(state, tuple(actions))
    return actions


def _plays(state: State, seat: int, ids: list[str], kind: ActionKind) -> list[Action]:
    """Thief placements (R5) or affordable Gear plays (R7), with every burn target (R17) and
    every grabbable type for a `GRAB ?` (R10)."""
    gear = kind is _PLAY
    cards = [CATALOGUE[card_id] for card_id in ids]
    burning = grabbing = False
    for card in cards:
        burning = burning or card.burns
        grabbing = grabbing or card.chooses_good
    places: list[Place] = []  # (location, Thieves with room or [NONE], burn targets, goods)
    for location, crew in enumerate(state.crews[seat]):
        thieves: Sequence[int]
        if gear:
            thieves = table.thieves_with_room(crew) if crew else NO_THIEVES
        else:  # fewer than 3 cards: fewer than 3 Thieves
            thieves = NO_CHOICE if len(crew) < 3 or table.has_thief_room(crew) else NO_THIEVES
        if thieves:
            targets = table.burn_targets(state, seat, location) if burning else ()
            goods = table.goods_present(state.goods[location]) if grabbing else ()
            places.append((location, thieves, targets or NO_CHOICE, goods or NO_CHOICE))
    coins = state.coins[seat]
    actions: list[Action] = []
    for card_id, card in zip(ids, cards, strict=True):
        if gear and card.cost > coins:
            continue
        if card.burns or card.chooses_good:
            actions += _choice_plays(kind, card, places)
        elif gear:
            per_location = ON_THIEF[card_id]
            for location, room, _, _ in places:
                row = per_location[location]
                # Thieves with room are most often the first ones: one slice copies them.
                if room[-1] == len(room) - 1:
                    actions += row[: len(room)]
                else:
                    actions += [row[thief] for thief in room]
        else:
            row = THIEF_AT[card_id]
            actions += [row[location] for location, _, _, _ in places]
    return actions


def _choice_plays(kind: ActionKind, card: Card, places: list[Place]) -> list[Action]:
    """The plays of a card that names a burn target or a good: one per choice."""
    card_id, new = card.id, tuple.__new__  # `new` skips the keyword handling of `Action(...)`
    return [
        new(Action, (kind, card_id, location, thief, target, good))
        for location, thieves, targets, goods in places
        for thief in thieves
        for target in (targets if card.burns else NO_CHOICE)
        for good in (goods if card.chooses_good else NO_CHOICE)
    ]


def apply(state: State, action: object, seat: int | None = None) -> State:
    """The state after `action`; raises a typed error that says exactly why it is not legal.
    `action` is whatever a bot sent (`object`: the compiled engine checks declared types)."""
    if not is_listed(LAST_LISTED, state, action, seat, Action, ActionKind):
        reason = why_illegal(state, action, seat)
        if reason is not None:
            raise reason
    assert isinstance(action, Action)  # `why_illegal` refused anything else
    mover = state.to_move
    work = Work(state)
    if action.kind is _RETURN:
        work.returning = state.returning
        work.return_good(mover, action.good)
        changes = work.changes()
        changes["returning"] = NONE
        return _after_play(state, changes, 1 - mover)
    card = CATALOGUE[action.card]
    hand = _remove_one(state.hands[mover], card)
    if action.kind is _DISCARD:
        work.discard(mover, card, coin=True)
    else:
        work.play(mover, card, action)
    changes = work.changes()
    changes["hands"] = with_seat(state.hands, mover, hand)
    if work.returning != NONE:  # the victim of the burn chooses which token goes back
        changes.update(to_move=1 - mover, returning=work.returning)
        return _evolve(state, changes)
    return _after_play(state, changes, mover)


def _after_play(state: State, changes: dict[str, Any], mover: int) -> State:
    """`state` with `changes` once `mover` has played: the other player answers, both swap
    hands, or the round ends. One new state unless the round ends."""
    if not draft.turn_over(state.round, mover):
        changes["to_move"] = 1 - mover
        return _evolve(state, changes)
    hands = changes.get("hands", state.hands)
    if not draft.round_over(hands):
        first = ROUNDS[state.round].first
        changes.update(hands=draft.swap(hands), hands_known=True, to_move=first)
        return _evolve(state, changes)
    return _end_round(_evolve(state, changes))


def _evolve(state: State, changes: dict[str, Any]) -> State:
    """`state._replace(**changes)` without its keyword packing, on `apply`'s hottest path."""
    return _new_tuple(State, map(changes.get, _FIELDS, state))


def _end_round(state: State) -> State:
    """R4: each player's last card goes to their discard area without a coin, the first player
    first, each with its triggers; then the next round is dealt, or the game ends."""
    work = Work(state)
    first = ROUNDS[state.round].first
    for seat in (first, 1 - first):
        for card in state.hands[seat]:
            work.discard(seat, card, coin=False)
    changes = work.changes()
    changes["hands"] = ((), ())
    return _start_round(_evolve(state, changes), state.round + 1)


def _start_round(state: State, number: int) -> State:
    if number == FINAL_ROUND:
        return state._replace(round=number, to_move=-1, hands_known=False)
    kind, size, first = ROUNDS[number]
    cards = state.thief_deck if kind is Kind.THIEF else state.gear_deck
    dealt, rest = draft.deal(cards, size, top_seat=first)  # R2: the first player takes the top
    hands = (_sorted(dealt[0]), _sorted(dealt[1]))
    state = state._replace(round=number, to_move=first, hands=hands, hands_known=False)
    if kind is Kind.THIEF:
        return state._replace(thief_deck=rest)
    return state._replace(gear_deck=rest)


def why_illegal(
    state: State, action: object, seat: int | None = None
) -> IllegalActionError | InvalidActionError | None:
    """None if `action` is legal; otherwise the error to raise, with a message saying why."""
    if not isinstance(action, Action) or not isinstance(action.kind, ActionKind):
        return InvalidActionError(f"not a Caper: Europe action: {action!r}")
    turn = draft.turn_error(state.to_move, seat)
    if turn is not None:
        return turn
    listed: tuple[Action, ...] | None = LAST_LISTED.recall(state)
    if action in (tuple(legal_actions(state)) if listed is None else listed):
        return None
    return IllegalActionError(violation(state, action))


def _remove_one(cards: Hand, card: Card) -> Hand:
    index = cards.index(card)
    return cards[:index] + cards[index + 1 :]


def _sorted(cards: tuple[Card, ...]) -> Hand:
    return tuple(sorted(cards, key=lambda card: card.id))
