"""What one seat may know (section 4, "Information"), and sampling hidden states consistent with it.

A player with perfect memory knows their own hand, the whole board (crews in the order their
cards joined, markers, goods beside the Locations, hideouts), coins, the supply, both discard
areas and the deck sizes. The opponent's hand is unknown until the round's first swap; after it
both hands are known. Deck order is never known.

Every field is a plain value (ids, integers, tuples) so that it maps one to one onto a protobuf
message: crews as repeated (card, thief) pairs, goods as three counts.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, fields
from typing import Any

from arena.games.caper_common.draft import FINAL_ROUND, ROUNDS, deal_unseen, redeal_hidden
from arena.games.caper_europe.cards import Card, City, deck
from arena.games.caper_europe.catalogue import CATALOGUE, GEAR, THIEVES
from arena.games.caper_europe.state import Side, State

PublicCrew = tuple[tuple[str, int], ...]  # (card id, index of its Thief), oldest first
IntPair = tuple[int, int]


@dataclass(frozen=True, slots=True)
class EuropeObservation:
    seat: int
    city: str
    locations: tuple[str, ...]  # Location card ids, positions 0-2
    round: int  # 1-6; 7 once the game is over
    round_kind: str  # "thief", "gear" or "end"
    first_player: int
    to_move: int  # -1 once the game is over
    returning: int  # the Location a burned `GRAB ?` token goes back to (to_move chooses); -1
    hand: tuple[str, ...]
    opponent_hand: tuple[str, ...] | None  # None while unknown
    opponent_hand_size: int
    crews: tuple[tuple[PublicCrew, ...], ...]  # [seat][location]
    markers: tuple[int, ...]  # per Location, -4 ... +4, positive toward seat 0
    goods: tuple[tuple[int, ...], ...]  # beside each Location: (diamonds, paintings, antiques)
    hq_goods: tuple[tuple[int, ...], ...]  # in each seat's hideout, the same order
    coins: IntPair  # in hand
    hq_coins: IntPair
    supply: int
    discards: tuple[tuple[str, ...], tuple[str, ...]]  # in the order discarded
    thief_deck_size: int
    gear_deck_size: int

    def __reduce__(self) -> tuple[type[EuropeObservation], tuple[Any, ...]]:
        """Pickle and deepcopy rebuild a view through its constructor: the compiled engine's
        frozen class lacks the __setstate__ a dataclass has in Python."""
        return type(self), tuple(getattr(self, field.name) for field in fields(self))

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "city": self.city,
            "locations": list(self.locations),
            "round": self.round,
            "round_kind": self.round_kind,
            "first_player": self.first_player,
            "to_move": self.to_move,
            "returning": self.returning,
            "hand": list(self.hand),
            "opponent_hand": None if self.opponent_hand is None else list(self.opponent_hand),
            "opponent_hand_size": self.opponent_hand_size,
            "crews": [[[list(placed) for placed in crew] for crew in side] for side in self.crews],
            "markers": list(self.markers),
            "goods": [list(g) for g in self.goods],
            "hq_goods": [list(g) for g in self.hq_goods],
            "coins": list(self.coins),
            "hq_coins": list(self.hq_coins),
            "supply": self.supply,
            "discards": [list(d) for d in self.discards],
            "thief_deck_size": self.thief_deck_size,
            "gear_deck_size": self.gear_deck_size,
        }


def observe(state: State, seat: int) -> EuropeObservation:
    playing = state.round < FINAL_ROUND
    return EuropeObservation(
        seat=seat,
        city=state.city.value,
        locations=tuple(card.id for card in state.locations),
        round=state.round + 1,
        round_kind=ROUNDS[state.round].kind.value if playing else "end",
        first_player=ROUNDS[state.round].first if playing else ROUNDS[-1].first,
        to_move=state.to_move,
        returning=state.returning,
        hand=_ids(state.hands[seat]),
        opponent_hand=_ids(state.hands[1 - seat]) if state.hands_known else None,
        opponent_hand_size=len(state.hands[1 - seat]),
        crews=tuple(_public_side(side) for side in state.crews),
        markers=state.markers,
        goods=state.goods,
        hq_goods=state.hq_goods,
        coins=(state.coins[0], state.coins[1]),
        hq_coins=(state.hq_coins[0], state.hq_coins[1]),
        supply=state.supply,
        discards=(_ids(state.discards[0], True), _ids(state.discards[1], True)),
        thief_deck_size=len(state.thief_deck),
        gear_deck_size=len(state.gear_deck),
    )


def _ids(cards: tuple[Card, ...], keep_order: bool = False) -> tuple[str, ...]:
    ids = tuple(card.id for card in cards)
    return ids if keep_order else tuple(sorted(ids))


def _public_side(side: Side) -> tuple[PublicCrew, ...]:
    return tuple(tuple((card.id, thief) for card, thief in crew) for crew in side)


def unseen_cards(obs: EuropeObservation, cards: tuple[Card, ...]) -> list[Card]:
    """The cards of `cards`' deck this seat has not seen: in the opponent's unknown hand or the
    deck, sorted by id."""
    remaining = Counter(card.id for card in deck(cards, City(obs.city)))
    seen = [*obs.hand, *(obs.opponent_hand or ()), *obs.discards[0], *obs.discards[1]]
    seen += [card for side in obs.crews for crew in side for card, _ in crew]
    remaining.subtract(seen)
    return sorted((CATALOGUE[card] for card in remaining.elements() if card), key=_id)


def sample_state(obs: EuropeObservation, rng: random.Random) -> State:
    """A full state the seat cannot tell apart from the real one (for determinized search)."""
    known = None if obs.opponent_hand is None else _cards(obs.opponent_hand)
    unseen = (unseen_cards(obs, THIEVES), unseen_cards(obs, GEAR))
    hands, (thieves, gear) = deal_unseen(
        unseen, obs.round_kind, obs.seat, _cards(obs.hand), known, obs.opponent_hand_size, rng, _id
    )
    locations = tuple(CATALOGUE[card] for card in obs.locations)
    return State(
        city=City(obs.city),
        locations=(locations[0], locations[1], locations[2]),
        round=obs.round - 1,
        to_move=obs.to_move,
        hands=hands,
        thief_deck=thieves,
        gear_deck=gear,
        crews=tuple(_table_side(side) for side in obs.crews),
        markers=obs.markers,
        goods=obs.goods,
        hq_goods=obs.hq_goods,
        coins=obs.coins,
        hq_coins=obs.hq_coins,
        supply=obs.supply,
        discards=(_cards(obs.discards[0]), _cards(obs.discards[1])),
        hands_known=obs.opponent_hand is not None,
        returning=obs.returning,
    )


def _cards(ids: tuple[str, ...]) -> tuple[Card, ...]:
    return tuple(CATALOGUE[card] for card in ids)


def _table_side(side: tuple[PublicCrew, ...]) -> Side:
    return tuple(tuple((CATALOGUE[card], thief) for card, thief in crew) for crew in side)


def _id(card: Card) -> str:
    return card.id


def resample_hidden(state: State, seat: int, rng: random.Random) -> State:
    """`state` with everything `seat` cannot see dealt anew (deck order and, before the round's
    first swap, the opponent's hand). Used to prove observations leak nothing."""
    decks = (state.thief_deck, state.gear_deck)
    hands, (thieves, gear) = redeal_hidden(
        state.hands, state.hands_known, state.round, decks, seat, rng, key=_id
    )
    return state._replace(hands=hands, thief_deck=thieves, gear_deck=gear)
