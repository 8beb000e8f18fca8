"""Saying why an action breaks the rules, in words a bot author can act on. Whether an action is
legal is decided by the legal-action list (`rules.why_illegal`); this module only explains."""

from __future__ import annotations

from arena.games.caper_common.draft import ROUNDS, Kind
from arena.games.caper_europe import table
from arena.games.caper_europe.catalogue import CATALOGUE
from arena.games.caper_europe.effects import Good
from arena.games.caper_europe.state import NONE, Action, ActionKind, State, action_text


def violation(state: State, action: Action) -> str:
    """The first rule `action` breaks in the running game `state`."""
    for check in (_phase, _fields, _card, _place, _target, _grab):
        reason = check(state, action)
        if reason:
            return f"{action_text(action)}: {reason}"
    return f"{action_text(action)}: not a legal action now"


_USES = {  # which of (card, location, thief) each kind carries
    ActionKind.THIEF: (True, True, False),
    ActionKind.GEAR: (True, True, True),
    ActionKind.DISCARD: (True, False, False),
    ActionKind.RETURN: (False, False, False),
}


def _phase(state: State, action: Action) -> str:
    if state.returning != NONE:
        if action.kind is not ActionKind.RETURN:
            return f"your burned card's grab is undone: return a token to {state.returning}"
        return ""
    if action.kind is ActionKind.RETURN:
        return "there is no burned token to return now"
    number = state.round + 1
    if ROUNDS[state.round].kind is Kind.THIEF and action.kind is not ActionKind.THIEF:
        return f"round {number} is a Thief round: place a Thief (R5)"
    if ROUNDS[state.round].kind is Kind.GEAR and action.kind is ActionKind.THIEF:
        return f"round {number} is a Gear round: play or discard a Gear"
    return ""


def _fields(state: State, action: Action) -> str:
    uses_card, uses_location, uses_thief = _USES[action.kind]
    if uses_card != bool(action.card):
        return "names a card" if action.card else "names no card"
    if uses_location != (action.location != NONE):
        return "needs a location" if uses_location else "takes no location"
    if uses_thief != (action.thief != NONE):
        return "needs the Thief to carry it" if uses_thief else "takes no Thief"
    if action.kind is ActionKind.RETURN:
        return "" if action.good in tuple(Good) else "names no stolen good to return"
    if action.kind is ActionKind.DISCARD and (action.target != NONE or action.good != NONE):
        return "a discard takes nothing more"
    return ""


def _card(state: State, action: Action) -> str:
    if action.kind is ActionKind.RETURN:
        held = state.hq_goods[state.to_move]
        return "" if held[action.good] else f"you have no {Good(action.good)} in your hideout"
    card = CATALOGUE.get(action.card)
    if card is None:
        return f"there is no card {action.card!r} in Caper: Europe"
    if card not in state.hands[state.to_move]:
        return f"{card.id} is not in your hand"
    wanted = {ActionKind.THIEF: Kind.THIEF, ActionKind.GEAR: Kind.GEAR}.get(action.kind)
    if wanted is not None and card.kind is not wanted:
        return f"{card.id} is not a {wanted.value}"
    return ""


def _place(state: State, action: Action) -> str:
    if action.kind not in (ActionKind.THIEF, ActionKind.GEAR):
        return ""
    if action.location not in (0, 1, 2):
        return f"location must be 0, 1 or 2, not {action.location}"
    seat, card = state.to_move, CATALOGUE[action.card]
    crew = state.crews[seat][action.location]
    name = state.locations[action.location].name
    if action.kind is ActionKind.THIEF:
        return "" if table.has_thief_room(crew) else f"you already have 3 Thieves at {name}"
    if not 0 <= action.thief < table.thief_count(crew):
        return f"you have no Thief {action.thief} at {name}"
    if action.thief not in table.thieves_with_room(crew):
        return f"your Thief {action.thief} at {name} already carries 3 Gear"
    if card.cost > state.coins[seat]:
        return f"{card.id} costs {card.cost}, you have {state.coins[seat]} (R7)"
    return ""


def _target(state: State, action: Action) -> str:
    if action.kind not in (ActionKind.THIEF, ActionKind.GEAR):
        return ""
    card = CATALOGUE[action.card]
    if not card.burns:
        return "" if action.target == NONE else f"{card.id} burns nothing"
    targets = table.burn_targets(state, state.to_move, action.location)
    if action.target == NONE and targets:
        listed = ", ".join(map(str, targets))
        return f"the burn is mandatory: choose the opponent's Thief {listed} (R17)"
    if action.target != NONE and action.target not in targets:
        return (
            f"the opponent's Thief {action.target} there has no topmost Gear that can burn "
            "(covered and protected cards cannot, R16)"
        )
    return ""


def _grab(state: State, action: Action) -> str:
    if action.kind not in (ActionKind.THIEF, ActionKind.GEAR):
        return ""
    card = CATALOGUE[action.card]
    if not card.chooses_good:
        return "" if action.good == NONE else f"{card.id} lets you choose no stolen good"
    present = table.goods_present(state.goods[action.location])
    if action.good == NONE and present:
        choices = ", ".join(str(Good(good)) for good in present)
        return f"the grab is mandatory: choose one of {choices} (R10)"
    if action.good != NONE and action.good not in present:
        return f"there is no {Good(action.good)} beside that location"
    return ""
