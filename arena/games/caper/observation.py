"""What one seat may know (section 4, "Information"), and sampling hidden states consistent with it.

A player with perfect memory knows their own hand, the table, both discard areas, the coins and
the deck sizes. Before the first swap of a round the opponent's hand is unknown; after it, both
hands are known (each player saw the hand they passed on and now holds the other).

With 3 or 4 players (V4, V9) nobody sees another seat's hand; a seat remembers what it passed
this round (the Snitch which card went to whom, a Lookout the two cards it sent and the card its
Mastermind passed back), and everything played is public. Earlier rounds hold no secret: every
card dealt in a round ends played or discarded face up.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, fields, replace
from typing import Any

from arena.games.caper.cards import CATALOGUE, Card, City, Kind, deck
from arena.games.caper.state import ROLE_NAMES, ROUNDS, SNITCH, Pending, Side, State
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
    # Section 12 only (a 2-player observation keeps these defaults and its JSON leaves them out).
    players: int = 2
    role: str = "mastermind"  # "mastermind", "snitch" or "lookout"
    hand_sizes: tuple[int, ...] = ()  # per seat; the Snitch's is the two cards it drew, if any
    snitch_deck_size: int = 0
    passed: tuple[tuple[str, ...], ...] = ()  # this round, what this seat passed, turn by turn
    received: tuple[str, ...] = ()  # a Lookout: what its Mastermind passed back this round

    def __reduce__(self) -> tuple[type[CaperObservation], tuple[Any, ...]]:
        """Pickle and deepcopy rebuild a view through its constructor: the compiled engine's
        frozen class lacks the __setstate__ a dataclass has in Python."""
        return type(self), tuple(getattr(self, field.name) for field in fields(self))

    def to_json(self) -> dict[str, Any]:
        data = self._json_2p()
        if self.players != 2:
            data |= {
                "players": self.players,
                "role": self.role,
                "hand_sizes": list(self.hand_sizes),
                "snitch_deck_size": self.snitch_deck_size,
                "passed": [list(cards) for cards in self.passed],
                "received": list(self.received),
            }
        return data

    def _json_2p(self) -> dict[str, Any]:
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
    mastermind = seat if seat < 2 else 0  # a passer's hand fields are set by `_seat_view`
    obs = CaperObservation(
        seat=seat,
        city=state.city.value,
        locations=tuple(card.name for card in state.locations),
        round=state.round + 1,
        round_kind=ROUNDS[state.round].kind.value if playing else "end",
        first_player=ROUNDS[state.round].first if playing else ROUNDS[-1].first,
        to_move=state.to_move,
        hand=_names(state.hands[mastermind]),
        opponent_hand=_names(state.hands[1 - mastermind]) if state.hands_known else None,
        opponent_hand_size=len(state.hands[1 - mastermind]),
        board=tuple(_public_side(side) for side in state.board),
        coins=state.coins,
        supply=state.supply,
        laundered=state.laundered,
        discards=(_names(state.discards[0], keep_order=True), _names(state.discards[1], True)),
        thief_deck_size=len(state.thief_deck),
        gear_deck_size=len(state.gear_deck),
        pending=tuple((p.seat, p.card, p.location) for p in state.pending),
    )
    return obs if state.players == 2 else _seat_view(state, seat, obs)


def _seat_view(state: State, seat: int, obs: CaperObservation) -> CaperObservation:
    """V4 and V9: no other seat's hand, and this seat's own passes of the round."""
    drawn = state.snitch_deck[:2] if state.to_move == SNITCH else ()
    extra = (drawn,) if state.players == 3 else state.lookout_hands
    hands = (*state.hands, *extra)
    mastermind = seat - 2 if state.players == 4 and seat >= 2 else -1
    return replace(
        obs,
        hand=_names(hands[seat]),
        opponent_hand=None,
        opponent_hand_size=len(state.hands[1 - seat]) if seat < 2 else 0,
        players=state.players,
        role=ROLE_NAMES[state.players][seat].split()[-1].lower() if seat >= 2 else "mastermind",
        hand_sizes=tuple(len(hand) for hand in hands),
        snitch_deck_size=len(state.snitch_deck),
        passed=tuple(cards for passer, cards in state.passes if passer == seat),
        received=tuple(cards[0] for passer, cards in state.passes if passer == mastermind),
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
    if obs.players != 2:
        return _sample_variant(obs, rng)
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
    return _public_state(obs, hands, thieves, gear)


def _public_state(
    obs: CaperObservation,
    hands: tuple[tuple[Card, ...], tuple[Card, ...]],
    thieves: tuple[Card, ...],
    gear: tuple[Card, ...],
) -> State:
    """A state with what `obs` shows in public and the given hidden parts."""
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


def _sample_variant(obs: CaperObservation, rng: random.Random) -> State:
    """With 3 or 4 players: every hand but this seat's, the Snitch deck below the two cards the
    Snitch drew, and the decks, dealt from the cards this seat has not seen."""
    thieves, gear = unseen_cards(obs, Kind.THIEF), unseen_cards(obs, Kind.GEAR)
    rng.shuffle(thieves)
    rng.shuffle(gear)
    pool = thieves if obs.round_kind == Kind.THIEF.value else gear
    own = _cards(obs.hand)

    def deal(seat: int) -> tuple[Card, ...]:
        if seat == obs.seat:
            return own
        dealt, pool[:] = pool[: obs.hand_sizes[seat]], pool[obs.hand_sizes[seat] :]
        return tuple(sorted(dealt, key=_name))

    hands = tuple(deal(seat) for seat in range(len(obs.hand_sizes)))
    snitch_deck: tuple[Card, ...] = ()
    if obs.players == 3:
        top = hands[SNITCH]
        snitch_deck = top + tuple(pool[: obs.snitch_deck_size - len(top)])
        del pool[: obs.snitch_deck_size - len(top)]
    passes = [(obs.seat, cards) for cards in obs.passed]
    passes += [(obs.seat - 2, (card,)) for card in obs.received]
    state = _public_state(obs, (hands[0], hands[1]), tuple(thieves), tuple(gear))
    return state._replace(
        players=obs.players,
        snitch_deck=snitch_deck,
        lookout_hands=(hands[2], hands[3]) if obs.players == 4 else ((), ()),
        passes=tuple(passes),
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
    if state.players != 2:
        return _resample_variant(state, seat, rng)
    decks = (state.thief_deck, state.gear_deck)
    hands, (thieves, gear) = redeal_hidden(
        state.hands, state.hands_known, state.round, decks, seat, rng, key=_name
    )
    return state._replace(hands=hands, thief_deck=thieves, gear_deck=gear)


def _name(card: Card) -> str:
    return card.name


def _resample_variant(state: State, seat: int, rng: random.Random) -> State:
    """V4 and V9, written out seat by seat: the hands and Snitch-deck cards that `seat` has not
    seen are dealt anew from themselves and the deck of the round's kind; both decks reshuffled.

    A Mastermind sees no other hand; the Snitch sees only the two cards it draws; a Lookout sees
    its own hand and the opposing Mastermind's (the cards it sent), not its own Mastermind's
    (sent by the other Lookout) nor the other Lookout's."""
    hands = [*state.hands, *state.lookout_hands]  # seats 0-3 (Lookouts at 2 and 3)
    drawn = 2 if state.players == 3 and state.to_move == SNITCH else 0
    if state.players == 3:
        hidden = [1 - seat] if seat < 2 else [0, 1]
    elif seat < 2:
        hidden = [1 - seat, 2, 3]
    else:
        hidden = [seat - 2, 5 - seat]  # its own Mastermind and the other Lookout
    thief_round = state.round < len(ROUNDS) and ROUNDS[state.round].kind is Kind.THIEF
    thieves, gear = list(state.thief_deck), list(state.gear_deck)
    pool = thieves if thief_round else gear
    snitch_deck = list(state.snitch_deck)
    hidden_snitch = snitch_deck[0 if seat < 2 else drawn :]
    pool += [card for held in hidden for card in hands[held]] + hidden_snitch
    rng.shuffle(thieves)
    rng.shuffle(gear)
    for held in hidden:
        hands[held] = tuple(sorted(pool[: len(hands[held])], key=_name))
        del pool[: len(hands[held])]
    snitch_deck[len(snitch_deck) - len(hidden_snitch) :] = pool[: len(hidden_snitch)]
    del pool[: len(hidden_snitch)]
    return state._replace(
        hands=(hands[0], hands[1]),
        lookout_hands=(hands[2], hands[3]),
        snitch_deck=tuple(snitch_deck),
        thief_deck=tuple(thieves),
        gear_deck=tuple(gear),
    )
