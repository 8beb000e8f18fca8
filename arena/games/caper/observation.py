"""What one seat may know (section 4, "Information"), and sampling hidden states consistent with it.

A player with perfect memory knows their own hand, the table, both discard areas, the coins and
the deck sizes. Before the first swap of a round the opponent's hand is unknown; after it, both
hands are known (each player saw the hand they passed on and now holds the other).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from arena.games.caper.cards import CATALOGUE, Card, City, Kind, deck
from arena.games.caper.state import ROUNDS, Pending, Side, State
from arena.games.caper_common.draft import deal_unseen, redeal_hidden

PublicStack = tuple[tuple[str, bool], ...]  # (card name, flipped), the Thief first


@dataclass(frozen=True, slots=True)
class CaperObservation:
    seat: int
    city: str
    locations: tuple[str, ...]
    round: int  # 1-6; 7 while end-of-game abilities resolve or once the game is over
    round_kind: str  # "thief", "gear" or "end"
    first_player: int
    to_move: int  # -1 once the game is over
    hand: tuple[str, ...]
    opponent_hand: tuple[str, ...] | None  # None while unknown
    opponent_hand_size: int
    board: tuple[tuple[tuple[PublicStack, ...], ...], ...]  # [seat][location][thief]
    coins: tuple[int, int]
    supply: int
    laundered: tuple[int, int]
    discards: tuple[tuple[str, ...], tuple[str, ...]]
    thief_deck_size: int
    gear_deck_size: int
    pending: tuple[tuple[int, str, int], ...]  # R7 abilities left: (seat, card, location)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "city": self.city,
            "locations": list(self.locations),
            "round": self.round,
            "round_kind": self.round_kind,
            "first_player": self.first_player,
            "to_move": self.to_move,
            "hand": list(self.hand),
            "opponent_hand": None if self.opponent_hand is None else list(self.opponent_hand),
            "opponent_hand_size": self.opponent_hand_size,
            "board": [
                [[[[name, flipped] for name, flipped in stack] for stack in crew] for crew in side]
                for side in self.board
            ],
            "coins": list(self.coins),
            "supply": self.supply,
            "laundered": list(self.laundered),
            "discards": [list(d) for d in self.discards],
            "thief_deck_size": self.thief_deck_size,
            "gear_deck_size": self.gear_deck_size,
            "pending": [list(p) for p in self.pending],
        }


def observe(state: State, seat: int) -> CaperObservation:
    playing = state.round < len(ROUNDS)
    return CaperObservation(
        seat=seat,
        city=state.city.value,
        locations=tuple(card.name for card in state.locations),
        round=state.round + 1,
        round_kind=ROUNDS[state.round].kind.value if playing else "end",
        first_player=ROUNDS[state.round].first if playing else ROUNDS[-1].first,
        to_move=state.to_move,
        hand=_names(state.hands[seat]),
        opponent_hand=_names(state.hands[1 - seat]) if state.hands_known else None,
        opponent_hand_size=len(state.hands[1 - seat]),
        board=tuple(_public_side(side) for side in state.board),
        coins=state.coins,
        supply=state.supply,
        laundered=state.laundered,
        discards=(_names(state.discards[0], keep_order=True), _names(state.discards[1], True)),
        thief_deck_size=len(state.thief_deck),
        gear_deck_size=len(state.gear_deck),
        pending=tuple((p.seat, p.card, p.location) for p in state.pending),
    )


def _names(cards: tuple[Card, ...], keep_order: bool = False) -> tuple[str, ...]:
    names = tuple(card.name for card in cards)
    return names if keep_order else tuple(sorted(names))


def _public_side(side: Side) -> tuple[tuple[PublicStack, ...], ...]:
    return tuple(
        tuple(tuple((card.name, flipped) for card, flipped in stack) for stack in crew)
        for crew in side
    )


def unseen_cards(obs: CaperObservation, kind: Kind) -> list[Card]:
    """The cards of `kind` this seat has not seen: in the opponent's unknown hand or the deck."""
    remaining = Counter(card.name for card in deck(kind, City(obs.city)))
    seen = [*obs.hand, *(obs.opponent_hand or ()), *obs.discards[0], *obs.discards[1]]
    seen += [name for side in obs.board for crew in side for stack in crew for name, _ in stack]
    remaining.subtract(seen)
    return sorted((CATALOGUE[name] for name in remaining.elements()), key=lambda c: c.name)


def sample_state(obs: CaperObservation, rng: random.Random) -> State:
    """A full state the seat cannot tell apart from the real one (for determinized search)."""
    known = None if obs.opponent_hand is None else _cards(obs.opponent_hand)
    unseen = (unseen_cards(obs, Kind.THIEF), unseen_cards(obs, Kind.GEAR))
    hands, (thieves, gear) = deal_unseen(
        unseen,
        obs.round_kind,
        obs.seat,
        _cards(obs.hand),
        known,
        obs.opponent_hand_size,
        rng,
        _name,
    )
    return State(
        city=City(obs.city),
        locations=tuple(CATALOGUE[name] for name in obs.locations),  # type: ignore[arg-type]
        round=obs.round - 1,
        to_move=obs.to_move,
        hands=hands,
        thief_deck=thieves,
        gear_deck=gear,
        board=tuple(_table_side(side) for side in obs.board),  # type: ignore[arg-type]
        coins=obs.coins,
        supply=obs.supply,
        laundered=obs.laundered,
        discards=(_cards(obs.discards[0]), _cards(obs.discards[1])),
        hands_known=obs.opponent_hand is not None,
        pending=tuple(Pending(*p) for p in obs.pending),
    )


def _cards(names: tuple[str, ...]) -> tuple[Card, ...]:
    return tuple(CATALOGUE[name] for name in names)


def _table_side(side: tuple[tuple[PublicStack, ...], ...]) -> Side:
    return tuple(
        tuple(tuple((CATALOGUE[name], flipped) for name, flipped in stack) for stack in crew)
        for crew in side
    )  # type: ignore[return-value]


def resample_hidden(state: State, seat: int, rng: random.Random) -> State:
    """`state` with everything `seat` cannot see dealt anew: deck order and, before the round's
    first swap, the opponent's hand. Used to prove observations leak nothing."""
    decks = (state.thief_deck, state.gear_deck)
    hands, (thieves, gear) = redeal_hidden(
        state.hands, state.hands_known, state.round, decks, seat, rng, key=_name
    )
    return state._replace(hands=hands, thief_deck=thieves, gear_deck=gear)


def _name(card: Card) -> str:
    return card.name
