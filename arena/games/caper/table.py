"""Questions about the table the rules are made of (sections 6 and 8); the coin movements of
section 7 are shared with Caper: Europe (`arena.games.caper_common.coins`)."""

from __future__ import annotations

from collections.abc import Iterator

from arena.games.caper.cards import Card, Colour, CostModifier, Kind, OnPlay, Whose
from arena.games.caper.state import MAX_GEAR_PER_THIEF, Crew, Side, Stack, State
from arena.games.caper_common.coins import gain as gain
from arena.games.caper_common.coins import launder as launder
from arena.games.caper_common.coins import pay as pay
from arena.games.caper_common.coins import return_coin as return_coin

# Enum members read on every listing, as plain names: on Python 3.11 each read through its
# class goes through `EnumType.__getattr__`, several times the cost of reading a global.
_OWNER, _OPPONENT = Whose.OWNER, Whose.OPPONENT
_FLIP_GEAR, _FLIP_THIEF = OnPlay.FLIP_GEAR, OnPlay.FLIP_THIEF


def face_up(crew: Crew) -> Iterator[Card]:
    """The crew's cards that still have their abilities."""
    for stack in crew:
        for card, flipped in stack:
            if not flipped:
                yield card


def has_room(stack: Stack) -> bool:
    return len(stack) <= MAX_GEAR_PER_THIEF


def cost_modifiers(state: State, seat: int, location: int) -> tuple[CostModifier, ...]:
    """Every modifier on what `seat` pays for Gear at `location` (R6: Locations' hit both)."""
    board = state.board
    return crew_modifiers(
        state.locations[location], board[seat][location], board[1 - seat][location]
    )


def crew_modifiers(place: Card, own: Crew, opponent: Crew) -> tuple[CostModifier, ...]:
    """`cost_modifiers` from the Location and the two crews there."""
    found: list[CostModifier] = []
    if place.cost_modifier is not None:
        found.append(place.cost_modifier)
    # Plain loops: this runs for every legal-action listing, the engine's hottest path.
    for crew, whose in ((own, _OWNER), (opponent, _OPPONENT)):
        for stack in crew:
            for card, flipped in stack:
                modifier = card.cost_modifier
                if modifier is not None and not flipped and modifier.whose is whose:
                    found.append(modifier)
    return tuple(found)


def cost_with(modifiers: tuple[CostModifier, ...], card: Card) -> int:
    cost = card.cost
    for modifier in modifiers:
        if modifier.colour is None or modifier.colour is card.colour:
            cost += modifier.delta
    return max(0, cost)


def gear_cost(state: State, seat: int, location: int, card: Card) -> int:
    """What `seat` pays to play `card` at `location`: printed cost plus modifiers, at least 0."""
    return cost_with(cost_modifiers(state, seat, location), card)


def shields(location: Card, crew: Crew) -> list[Kind | Colour]:
    """What the owner of `crew` cannot have flipped at `location`: Thieves, or Gear of a colour,
    protected by the Location or by the crew's own face-up cards."""
    found = [location.protects[1]] if location.protects is not None else []
    for stack in crew:
        for card, flipped in stack:
            if card.protects is not None and not flipped:
                found.append(card.protects[1])
    return found


def flip_targets(state: State, seat: int, location: int, effect: OnPlay) -> tuple[int, ...]:
    """Positions of the opponent's Thieves at `location` whose top card `effect` may flip.

    Only the topmost card of a stack can be flipped (section 6): Blazeblaster needs a Gear on
    top, The Illusionist a Thief with no Gear; either way it must be face up and unprotected.
    """
    if effect is not _FLIP_GEAR and effect is not _FLIP_THIEF:
        return ()
    crew = state.board[1 - seat][location]
    wants_gear = effect is _FLIP_GEAR
    face_up_tops = [
        position
        for position, stack in enumerate(crew)
        if (len(stack) > 1) == wants_gear and not stack[-1][1]
    ]
    if not face_up_tops:
        return ()
    shielded = shields(state.locations[location], crew)
    if not shielded:
        return tuple(face_up_tops)
    if not wants_gear:
        return () if Kind.THIEF in shielded else tuple(face_up_tops)
    return tuple(p for p in face_up_tops if crew[p][-1][0].colour not in shielded)


def flip_top(
    board: tuple[Side, Side], seat: int, location: int, position: int
) -> tuple[Side, Side]:
    stack = board[seat][location][position]
    card, _ = stack[-1]
    return replace_stack(board, seat, location, position, (*stack[:-1], (card, True)))


def replace_stack(
    board: tuple[Side, Side], seat: int, location: int, position: int, stack: Stack
) -> tuple[Side, Side]:
    crew = board[seat][location]
    return _replace_crew(board, seat, location, (*crew[:position], stack, *crew[position + 1 :]))


def add_stack(
    board: tuple[Side, Side], seat: int, location: int, stack: Stack
) -> tuple[Side, Side]:
    return _replace_crew(board, seat, location, (*board[seat][location], stack))


def _replace_crew(
    board: tuple[Side, Side], seat: int, location: int, crew: Crew
) -> tuple[Side, Side]:
    side = board[seat]
    new_side: Side = (
        crew if location == 0 else side[0],
        crew if location == 1 else side[1],
        crew if location == 2 else side[2],
    )
    return (new_side, board[1]) if seat == 0 else (board[0], new_side)
