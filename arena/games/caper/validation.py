"""Checking one action against the rules, and saying why it breaks them in words a bot author
can act on. The conformance tests hold this to agree exactly with `rules.legal_actions`."""

from __future__ import annotations

from arena.games.caper import table, variants
from arena.games.caper.cards import CATALOGUE, Kind, OnPlay
from arena.games.caper.state import (
    MAX_THIEVES_PER_LOCATION,
    NONE,
    ROUNDS,
    Action,
    ActionKind,
    State,
    action_text,
)


def violation(state: State, action: Action) -> str:
    """The first rule `action` breaks in the running game `state`, or "" if it is legal."""
    if state.to_move >= 2 or action.kind in variants.PASS_KINDS:
        reason = variants.pass_violation(state, action)
        return f"{action_text(action)}: {reason}" if reason else ""
    for check in (_phase, _fields, _card, _location, _placement, _discard, _target):
        reason = check(state, action)
        if reason:
            return f"{action_text(action)}: {reason}"
    return ""


_USES = {  # which of (card, location, thief, target) each kind may carry
    ActionKind.THIEF: (True, True, False, True),
    ActionKind.GEAR: (True, True, True, True),
    ActionKind.DISCARD: (True, False, False, False),
    ActionKind.REPLAY: (True, True, True, True),
    ActionKind.PASS: (False, False, False, False),
}


def _fields(state: State, action: Action) -> str:
    uses = _USES[action.kind]
    if uses[0] != bool(action.card):
        return "names a card" if action.card else "names no card"
    names = ("location", "thief", "flip target")
    for used, value, what in zip(uses[1:], action[2:5], names, strict=True):
        if not used and value != NONE:
            return f"takes no {what}"
    if action.other:
        return "takes no second card"
    card = CATALOGUE.get(action.card)
    gear_kinds = (ActionKind.GEAR, ActionKind.DISCARD, ActionKind.REPLAY)
    if action.kind in gear_kinds and card is not None and card.kind is not Kind.GEAR:
        return f"{action.card} is not a Gear"
    return ""


def _phase(state: State, action: Action) -> str:
    if state.pending:
        head = state.pending[0]
        if action.kind not in (ActionKind.REPLAY, ActionKind.PASS):
            return f"{head.card} at location {head.location} is resolving: replay a Gear or pass"
        return ""
    if action.kind in (ActionKind.REPLAY, ActionKind.PASS):
        return "there is no end-of-game ability to resolve now"
    number = state.round + 1
    if ROUNDS[state.round].kind is Kind.THIEF and action.kind is not ActionKind.THIEF:
        return f"round {number} is a Thief round: place a Thief (R2)"
    if ROUNDS[state.round].kind is Kind.GEAR and action.kind is ActionKind.THIEF:
        return f"round {number} is a Gear round: play or discard a Gear"
    return ""


def _card(state: State, action: Action) -> str:
    seat = state.to_move
    if action.kind is ActionKind.PASS:
        return ""
    if action.kind is ActionKind.REPLAY:
        if all(card.name != action.card for card in state.discards[seat]):
            return f"{action.card} is not in your discard area"
        return ""
    if all(card.name != action.card for card in state.hands[seat]):
        return f"{action.card} is not in your hand"
    return ""


def _location(state: State, action: Action) -> str:
    if action.kind in (ActionKind.DISCARD, ActionKind.PASS):
        return ""
    if action.location not in (0, 1, 2):
        return f"location must be 0, 1 or 2, not {action.location}"
    if action.kind is ActionKind.REPLAY and action.location != state.pending[0].location:
        head = state.pending[0]
        return f"{head.card} only plays Gear at its own location {head.location}"
    return ""


def _placement(state: State, action: Action) -> str:
    seat, location = state.to_move, action.location
    crew = state.board[seat][location] if location in (0, 1, 2) else ()
    name = state.locations[location].name if location in (0, 1, 2) else ""
    if action.kind is ActionKind.THIEF:
        if action.thief != NONE:
            return "a Thief is placed at a location, not on a Thief"
        if len(crew) >= MAX_THIEVES_PER_LOCATION:
            return f"you already have {MAX_THIEVES_PER_LOCATION} Thieves at {name}"
        return ""
    if action.kind not in (ActionKind.GEAR, ActionKind.REPLAY):
        return ""
    if not 0 <= action.thief < len(crew):
        return f"you have no Thief {action.thief} at {name} (you have {len(crew)})"
    if not table.has_room(crew[action.thief]):
        return f"your Thief {action.thief} at {name} already carries 3 Gear"
    card = CATALOGUE[action.card]
    cost = table.gear_cost(state, seat, location, card)
    if action.kind is ActionKind.GEAR and cost > state.coins[seat]:
        return f"{card.name} costs {cost} at {name}, you have {state.coins[seat]}"
    return ""


def _discard(state: State, action: Action) -> str:
    if action.kind is not ActionKind.DISCARD or state.players != 4:
        return ""
    if variants.can_play_gear(state, state.to_move):
        return "with 4 players you may discard only when neither card can be played (V7)"
    return ""


def _target(state: State, action: Action) -> str:
    if action.kind in (ActionKind.DISCARD, ActionKind.PASS):
        return ""
    card = CATALOGUE[action.card]
    targets = table.flip_targets(state, state.to_move, action.location, card.on_play)
    if action.target == NONE and targets:
        listed = ", ".join(map(str, targets))
        return f"{card.name} must flip one of the opponent's Thieves {listed} (R4)"
    if action.target != NONE and action.target not in targets:
        if card.on_play not in (OnPlay.FLIP_GEAR, OnPlay.FLIP_THIEF):
            return f"{card.name} flips nothing"
        return f"the opponent's Thief {action.target} has no top card {card.name} may flip"
    return ""
