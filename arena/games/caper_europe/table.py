"""Questions about the table: stacks, room for Gear, burn targets and protection (sections 5, 6.7
and 7), and counting a condition over cards (sections 6.3 and 6.6)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from arena.games.caper_common.counting import disjoint_sets
from arena.games.caper_common.draft import Kind
from arena.games.caper_europe.cards import Card
from arena.games.caper_europe.effects import Condition, Scope
from arena.games.caper_europe.state import (
    MAX_GEAR_PER_THIEF,
    MAX_THIEVES_PER_LOCATION,
    Crew,
    Goods,
    Placed,
    State,
)

# Enum members read on every action, as plain names: on Python 3.11 each read through its
# class goes through `EnumType.__getattr__`, several times the cost of reading a global.
_THIEF, _GEAR = Kind.THIEF, Kind.GEAR
_DISCARD_GEAR = Scope.DISCARD_GEAR


def cards_of(crew: Sequence[Placed]) -> list[Card]:
    return [card for card, _ in crew]


def thief_count(crew: Sequence[Placed]) -> int:
    return [card.kind for card, _ in crew].count(_THIEF)


def has_thief_room(crew: Crew) -> bool:
    return thief_count(crew) < MAX_THIEVES_PER_LOCATION


def tops(crew: Crew) -> list[Card]:
    """The topmost card of each stack: its last Gear, or the Thief itself if it has none."""
    top: list[Card] = [card for card, _ in crew if card.kind is _THIEF]
    for card, thief in crew:
        top[thief] = card
    return top


def topmost_gear(crew: Crew) -> list[Card]:
    """The topmost Gear of the crew: one per Thief that carries Gear (R25, section 7)."""
    return [card for card in tops(crew) if card.kind is _GEAR]


def thieves_with_room(crew: Crew) -> list[int]:
    """Indices of the Thieves here that can take another Gear (fewer than 3)."""
    loads: list[int] = []  # a Gear joins after its Thief, and Thieves never leave
    for card, thief in crew:
        if card.kind is _THIEF:
            loads.append(0)
        else:
            loads[thief] += 1
    return [thief for thief, load in enumerate(loads) if load < MAX_GEAR_PER_THIEF]


def is_protected(location: Card, crew: Crew, card: Card) -> bool:
    """R16: the Location protects both sides' cards of its colour; a crew card protects its
    owner's cards of its colour in that crew, itself included, covered or not."""
    if card.colour in location.protects:
        return True
    return any(card.colour in other.protects for other, _ in crew)


def burn_targets(state: State, burner: int, location: int) -> tuple[int, ...]:
    """Indices of the opponent's Thieves at `location` whose topmost card is an unprotected Gear
    (section 7: covered Gear and Thieves are never burned; R16 as in `is_protected`)."""
    crew = state.crews[1 - burner][location]
    gear_tops = [(thief, top) for thief, top in enumerate(tops(crew)) if top.kind is _GEAR]
    if not gear_tops:
        return ()
    shielded = {colour for card, _ in crew for colour in card.protects}
    shielded.update(state.locations[location].protects)
    return tuple(thief for thief, top in gear_tops if top.colour not in shielded)


def goods_present(goods: Goods) -> tuple[int, ...]:
    return tuple(good for good, count in enumerate(goods) if count)


def count_cards(cond: Condition, cards: Iterable[Card]) -> int:
    """How many times `cond` holds among `cards`: disjoint sets (R15), a single colour being a
    set of one. `DISCARD_GEAR` counts Gear only; Thieves match the colour grey."""
    gear_only = cond.scope is _DISCARD_GEAR
    have = [0] * len(cond.colours)
    gear = thieves = 0
    for card in cards:
        if card.kind is _THIEF:
            if gear_only:
                continue
            thieves += 1
        else:
            gear += 1
        for slot, (colour, _) in enumerate(cond.colours):
            if card.colour is colour:
                have[slot] += 1
    needs = [(n, need) for n, (_, need) in zip(have, cond.colours, strict=True)]
    return disjoint_sets(needs, cond.any_gear, gear, cond.thieves, thieves)


def without_one(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """`cards` less its last copy of `card`: the scope just before `card` arrived."""
    index = len(cards) - 1 - cards[::-1].index(card)
    return cards[:index] + cards[index + 1 :]


def count_condition(
    cond: Condition,
    seat: int,
    location: int,
    crews: Sequence[Sequence[Sequence[Placed]]],
    discards: Sequence[Sequence[Card]],
    hq_goods: Sequence[Sequence[int]],
    hq_coins: Sequence[int],
) -> int:
    """`cond` counted for `seat` at `location` (section 6.3, R24). Takes the parts of a state
    so that a state and a play being resolved count alike."""
    scope = cond.scope
    if scope is Scope.HQ_COINS:
        return hq_coins[seat]
    if scope is Scope.HQ_GOODS:
        goods = hq_goods[seat]
        return sum(goods) if cond.good is None else goods[cond.good]
    if scope is Scope.DISCARD or scope is Scope.DISCARD_GEAR:
        return count_cards(cond, discards[seat])
    mine = cards_of(crews[seat][location]) if scope is not Scope.OPP else []
    theirs = cards_of(crews[1 - seat][location]) if scope is not Scope.CREW else []
    return count_cards(cond, mine + theirs)
