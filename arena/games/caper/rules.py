"""How a Caper game moves: setup, legal actions, applying an action, and the round structure."""

from __future__ import annotations

import random
from operator import attrgetter
from typing import Any

from arena.games.api import (
    Config,
    IllegalActionError,
    InvalidActionError,
)
from arena.games.caper import table, variants
from arena.games.caper.action_table import DISCARD, LOCATIONS, ON_THIEF, THIEF_AT
from arena.games.caper.cards import CATALOGUE, CITIES, Card, CostModifier, Kind, OnPlay, deck
from arena.games.caper.state import (
    FINAL_ROUND,
    MAX_GEAR_PER_THIEF,
    MAX_THIEVES_PER_LOCATION,
    NONE,
    ROUNDS,
    TOTAL_COINS,
    Action,
    ActionKind,
    Hand,
    Pending,
    Side,
    State,
    replaced,
)
from arena.games.caper.validation import violation
from arena.games.caper_common import draft
from arena.games.caper_common.config import city_setting
from arena.games.caper_common.draft import with_seat
from arena.games.caper_common.listed import LastState, is_listed

EMPTY_SIDE: Side = ((), (), ())


NO_TARGET: tuple[int, ...] = (NONE,)
Place = tuple[int, tuple[CostModifier, ...], list[int], int]
# The actions `legal_actions` listed last (a tuple: the caller may change the list it gets), for
# `apply` and `why_illegal` to accept one without checking it again.
LAST_LISTED = LastState()
# The places and cost modifiers the last listing of gear plays found, for `_gear_cost`.
LAST_PLACES = LastState()
# Enum members read on every action, as plain names: on Python 3.11 each read through its
# class goes through `EnumType.__getattr__`, several times the cost of reading a global.
_THIEF_ROUND, _ANY_GEAR = Kind.THIEF, Kind.GEAR
_PLACE, _PLAY, _REPLAY = ActionKind.THIEF, ActionKind.GEAR, ActionKind.REPLAY
_FLIP_GEAR, _FLIP_THIEF = OnPlay.FLIP_GEAR, OnPlay.FLIP_THIEF
_GAIN, _GAIN_PER_THIEF, _LAUNDER = OnPlay.GAIN, OnPlay.GAIN_PER_OPPONENT_THIEF, OnPlay.LAUNDER


def create(config: Config, seed: int) -> State:
    """A new game in the configured city (`{"city": "paris"}` by default) for the configured
    number of players (`{"players": 3}`: section 12; 2 by default), shuffled by `seed`."""
    city = city_setting(config, CITIES, "Caper", extra=("players",))
    players = variants.players_setting(config.get("players", 2))
    rng = random.Random(seed)
    decks = [list(deck(kind, city)) for kind in (Kind.LOCATION, Kind.THIEF, Kind.GEAR)]
    for cards in decks:
        rng.shuffle(cards)
    locations, thieves, gear = decks
    state = State(
        city=city,
        locations=(locations[0], locations[1], locations[2]),
        round=0,
        to_move=0,
        hands=((), ()),
        thief_deck=tuple(thieves),
        gear_deck=tuple(gear),
        board=(EMPTY_SIDE, EMPTY_SIDE),
        coins=(0, 0),
        supply=TOTAL_COINS,
        laundered=(0, 0),
        discards=((), ()),
        hands_known=False,
        pending=(),
        players=players,
    )
    return _start_round(state, 0)


def legal_actions(state: State) -> list[Action]:
    """Every legal action, sorted by (kind, card, location, thief, target)."""
    if state.to_move < 0:
        return []
    seat = state.to_move
    if seat >= 2:
        actions = variants.pass_actions(state)
        LAST_LISTED.keep(state, tuple(actions))
        return actions
    if state.pending:
        gear = {card.name for card in state.discards[seat] if card.kind is Kind.GEAR}
        replays = _gear_plays(state, seat, sorted(gear), ActionKind.REPLAY)
        return [*replays, Action(ActionKind.PASS)]
    names = sorted({card.name for card in state.hands[seat]})
    if ROUNDS[state.round].kind is _THIEF_ROUND:
        actions = _thief_plays(state, seat, names)
    else:
        actions = _gear_plays(state, seat, names)
        if state.players != 4 or not actions:  # V7: with 4 players, only if nothing plays
            actions += [DISCARD[name] for name in names]
    LAST_LISTED.keep(state, tuple(actions))
    return actions


def _thief_plays(state: State, seat: int, names: list[str]) -> list[Action]:
    open_locations = [
        loc for loc, crew in enumerate(state.board[seat]) if len(crew) < MAX_THIEVES_PER_LOCATION
    ]
    actions = []
    for name in names:
        effect = CATALOGUE[name].on_play
        if effect is not _FLIP_THIEF:
            row = THIEF_AT[name]
            actions += [row[loc] for loc in open_locations]
            continue
        for location in open_locations:
            targets = table.flip_targets(state, seat, location, effect) or NO_TARGET
            actions += [Action(ActionKind.THIEF, name, location, NONE, t) for t in targets]
    return actions


def _gear_plays(
    state: State, seat: int, names: list[str], kind: ActionKind = ActionKind.GEAR
) -> list[Action]:
    """Gear plays in sorted order. A REPLAY (R7) is free and only at the resolving Location."""
    free = kind is _REPLAY
    mine, theirs = state.board[seat], state.board[1 - seat]
    places: list[Place] = []  # (location, cost modifiers, Thieves with room, see `_prefix`)
    for location in (state.pending[0].location,) if free else LOCATIONS:
        crew = mine[location]
        room = [i for i, stack in enumerate(crew) if len(stack) <= MAX_GEAR_PER_THIEF]
        if room:
            place = state.locations[location]
            modifiers = () if free else table.crew_modifiers(place, crew, theirs[location])
            places.append((location, modifiers, room, _prefix(room)))
    if not free:
        LAST_PLACES.keep(state, places)
    coins = state.coins[seat]
    actions: list[Action] = []
    rows = ON_THIEF[kind]
    for name in names:
        card = CATALOGUE[name]
        if card.on_play is _FLIP_GEAR:
            actions += _flip_gear_plays(state, seat, kind, card, places, free)
            continue
        per_location = rows[name]
        for location, modifiers, room, prefix in places:
            if free or (table.cost_with(modifiers, card) if modifiers else card.cost) <= coins:
                row = per_location[location]
                # Thieves with room are most often the first ones: one slice copies them.
                actions += row[:prefix] if prefix else [row[i] for i in room]
    return actions


def _prefix(room: list[int]) -> int:
    """How many Thieves `room` lists if they are the first ones in order, else 0."""
    return len(room) if room[-1] == len(room) - 1 else 0


def _flip_gear_plays(
    state: State, seat: int, kind: ActionKind, card: Card, places: list[Place], free: bool
) -> list[Action]:
    """Blazeblaster's plays: one per Thief with room and flippable target it can pay for."""
    actions: list[Action] = []
    coins = state.coins[seat]
    for location, modifiers, room, _ in places:
        if free or table.cost_with(modifiers, card) <= coins:
            flips = table.flip_targets(state, seat, location, card.on_play) or NO_TARGET
            actions += [Action(kind, card.name, location, i, t) for i in room for t in flips]
    return actions


def apply(state: State, action: object, seat: int | None = None) -> State:
    """The state after `action`; raises a typed error that says exactly why it is not legal.
    `action` is whatever a bot sent (`object`: the compiled engine checks declared types)."""
    if not is_listed(LAST_LISTED, state, action, seat, Action, ActionKind):
        reason = why_illegal(state, action, seat)
        if reason is not None:
            raise reason
    assert isinstance(action, Action)  # `why_illegal` refused anything else
    mover = state.to_move
    if mover >= 2:
        return variants.apply_pass(state, action)
    if state.pending:
        return _resolve_replay(state, action)
    hand = _remove_one(state.hands[mover], action.card)
    if action.kind is _PLACE:
        changes = _place_thief(state, mover, action)
    elif action.kind is _PLAY:
        changes = _place_gear(state, mover, action, free=False)
    else:
        coins, supply = table.gain(state.coins, state.supply, mover, 1)
        discarded = (*state.discards[mover], CATALOGUE[action.card])
        discards = with_seat(state.discards, mover, discarded)
        changes = {"coins": coins, "supply": supply, "discards": discards}
    hands = changes["hands"] = with_seat(state.hands, mover, hand)
    # The next state in one step when the turn goes on: the other player answers, or (with 2
    # players) both swap hands.
    if not draft.turn_over(state.round, mover):
        changes["to_move"] = 1 - mover
        return replaced(state, changes)
    if state.players == 2 and not draft.round_over(hands):
        changes.update(hands=draft.swap(hands), hands_known=True, to_move=ROUNDS[state.round].first)
        return replaced(state, changes)
    return _end_turn(replaced(state, changes))


def _place_thief(state: State, seat: int, action: Action) -> dict[str, Any]:
    card = CATALOGUE[action.card]
    board = table.add_stack(state.board, seat, action.location, ((card, False),))
    coins, supply = table.gain(state.coins, state.supply, seat, card.income)
    if action.target != NONE:
        board = table.flip_top(board, 1 - seat, action.location, action.target)
    # R10: a face-up Signal Jammer taxes its owner's later Thief plays at its Location.
    if any(c.taxes_own_thief_play for c in table.face_up(state.board[seat][action.location])):
        coins, supply = table.return_coin(coins, supply, 1 - seat)
    return {"board": board, "coins": coins, "supply": supply}


def _place_gear(state: State, seat: int, action: Action, free: bool) -> dict[str, Any]:
    """Pay, put the Gear on top of the chosen Thief, then its on-play effect, then the
    Location's coin tax (the order section 5 lists them in)."""
    card, location = CATALOGUE[action.card], action.location
    cost = 0 if free else _gear_cost(state, seat, location, card)
    coins, supply = table.pay(state.coins, state.supply, seat, cost)
    laundered = state.laundered
    stack = state.board[seat][location][action.thief]
    board = table.replace_stack(state.board, seat, location, action.thief, (*stack, (card, False)))
    effect = card.on_play
    if effect is _FLIP_GEAR and action.target != NONE:
        board = table.flip_top(board, 1 - seat, location, action.target)
    elif effect is _GAIN:
        coins, supply = table.gain(coins, supply, seat, card.amount)
    elif effect is _GAIN_PER_THIEF:
        bonus = len(state.board[1 - seat][location])
        coins, supply = table.gain(coins, supply, seat, card.amount + bonus)
    elif effect is _LAUNDER:
        coins, supply, laundered = table.launder(coins, supply, laundered, seat)
    tax = state.locations[location].gear_tax
    if tax is _ANY_GEAR or tax is card.colour:
        coins, supply = table.return_coin(coins, supply, 1 - seat)
    return {"board": board, "coins": coins, "supply": supply, "laundered": laundered}


def _gear_cost(state: State, seat: int, location: int, card: Card) -> int:
    """`table.gear_cost`, from the cost modifiers found when listing this state's actions if it
    was the last listed (as it is when a bot plays a listed action)."""
    places: list[Place] | None = LAST_PLACES.recall(state)
    if places is not None:
        for place, modifiers, _, _ in places:
            if place == location:
                return table.cost_with(modifiers, card)
    return table.gear_cost(state, seat, location, card)


def _end_turn(state: State) -> State:
    """Both have played: swap hands (with 3 or 4 players, pass cards again), or, holding one
    card each, discard it and end the round."""
    if state.players != 2:
        next_turn = variants.next_turn(state)
        if next_turn is not None:
            return next_turn
    elif not draft.round_over(state.hands):
        first = ROUNDS[state.round].first
        return state._replace(hands=draft.swap(state.hands), hands_known=True, to_move=first)
    discards = (state.discards[0] + state.hands[0], state.discards[1] + state.hands[1])
    return _start_round(state._replace(hands=((), ()), discards=discards), state.round + 1)


def _start_round(state: State, number: int) -> State:
    if number == FINAL_ROUND:
        return _next_pending(state._replace(round=number, pending=_final_abilities(state)))
    if state.players != 2:
        return variants.deal_round(state, number)
    kind, size, first = ROUNDS[number]
    cards = state.thief_deck if kind is Kind.THIEF else state.gear_deck
    dealt, rest = draft.deal(cards, size, top_seat=0)  # Cream takes the top cards in any round
    hands = (_sorted(dealt[0]), _sorted(dealt[1]))
    state = state._replace(round=number, to_move=first, hands=hands, hands_known=False)
    if kind is Kind.THIEF:
        return state._replace(thief_deck=rest)
    return state._replace(gear_deck=rest)


def _final_abilities(state: State) -> tuple[Pending, ...]:
    """R7: the round-6 first player resolves all theirs first, each by Location and stack."""
    first = ROUNDS[-1].first
    return tuple(
        Pending(seat, card.name, location)
        for seat in (first, 1 - first)
        for location, crew in enumerate(state.board[seat])
        for card in table.face_up(crew)
        if card.replays_from_discard
    )


def _next_pending(state: State) -> State:
    """Drop abilities that were flipped meanwhile or have nothing to play, then hand over."""
    pending = state.pending
    while pending:
        head = pending[0]
        probe = state._replace(pending=pending, to_move=head.seat)
        source_up = any(
            c.name == head.card for c in table.face_up(state.board[head.seat][head.location])
        )
        if source_up and len(legal_actions(probe)) > 1:
            return probe
        pending = pending[1:]
    return state._replace(pending=(), to_move=-1)


def _resolve_replay(state: State, action: Action) -> State:
    if action.kind is _REPLAY:
        seat = state.to_move
        discards = with_seat(state.discards, seat, _remove_one(state.discards[seat], action.card))
        state = state._replace(discards=discards)
        state = state._replace(**_place_gear(state, seat, action, free=True))
    return _next_pending(state._replace(pending=state.pending[1:]))


def why_illegal(
    state: State, action: object, seat: int | None = None
) -> IllegalActionError | InvalidActionError | None:
    """None if `action` is legal; otherwise the error to raise, with a message saying why."""
    if not isinstance(action, Action) or not isinstance(action.kind, ActionKind):
        return InvalidActionError(f"not a Caper action: {action!r}")
    turn = draft.turn_error(state.to_move, seat)
    if turn is not None:
        return turn
    if is_listed(LAST_LISTED, state, action, seat, Action, ActionKind):
        return None
    reason = violation(state, action)
    return IllegalActionError(reason) if reason else None


def _remove_one(cards: tuple[Card, ...], name: str) -> tuple[Card, ...]:
    for index, card in enumerate(cards):
        if card.name == name:
            return cards[:index] + cards[index + 1 :]
    raise AssertionError(f"{name} vanished after validation")


def _sorted(cards: tuple[Card, ...]) -> Hand:
    return tuple(sorted(cards, key=_name))


_name = attrgetter("name")
