"""Build a Caper: Europe state by hand from card ids: for tests, rulebook examples, bug reports.

A stack is written bottom to top, the Thief first. Cards join a crew Thieves first (in the order
given), then each stack's Gear bottom to top, unless `joined` gives the order explicitly:

>>> from arena.games.caper_europe.scenario import scenario
>>> state = scenario(crews={1: {0: [["banker"], ["colonel", "plasma_cutter"]]}}, markers=(-1, 0, 0))
>>> [card.id for card, _ in state.crews[1][0]]
['banker', 'colonel', 'plasma_cutter']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from arena.games.caper_common.coins import TOTAL_COINS
from arena.games.caper_common.draft import FINAL_ROUND, ROUNDS, Kind
from arena.games.caper_europe.cards import Card, City, deck
from arena.games.caper_europe.catalogue import CATALOGUE, GEAR, THIEVES
from arena.games.caper_europe.state import NONE, TOKENS_PER_TYPE, Crew, Goods, Side, State

BoardSpec = Mapping[int, Mapping[int, Sequence[Sequence[str]]]]  # seat -> location -> stacks
GoodsPair = tuple[Goods, Goods]


def scenario(
    *,
    city: str = "paris",
    locations: Sequence[str] = ("museum", "bank", "casino"),
    round: int = 2,
    to_move: int | None = None,
    hands: Sequence[Iterable[str]] = ((), ()),
    crews: BoardSpec | None = None,
    markers: tuple[int, int, int] = (0, 0, 0),
    goods: tuple[Goods, Goods, Goods] | None = None,
    hq_goods: GoodsPair = ((0, 0, 0), (0, 0, 0)),
    coins: tuple[int, int] = (0, 0),
    hq_coins: tuple[int, int] = (0, 0),
    supply: int | None = None,
    discards: Sequence[Iterable[str]] = ((), ()),
    hands_known: bool = False,
    returning: int = NONE,
) -> State:
    """A state in `round` (1-6, or 7 for a finished game); the decks hold the unused cards and,
    unless `goods` is given, the tokens not in a hideout lie beside the Locations."""
    crews = crews or {}
    sides = tuple(_side(crews.get(seat, {})) for seat in (0, 1))
    hand_cards = [_cards(ids) for ids in hands]
    discard_cards = [_cards(ids) for ids in discards]
    used = [*hand_cards[0], *hand_cards[1], *discard_cards[0], *discard_cards[1]]
    used += [card for side in sides for crew in side for card, _ in crew]
    index = round - 1
    first = ROUNDS[min(index, FINAL_ROUND - 1)].first
    places = tuple(CATALOGUE[card] for card in locations)
    return State(
        city=City(city),
        locations=(places[0], places[1], places[2]),
        round=index,
        to_move=(first if index < FINAL_ROUND else NONE) if to_move is None else to_move,
        hands=(_sorted(hand_cards[0]), _sorted(hand_cards[1])),
        thief_deck=_rest(THIEVES, City(city), used),
        gear_deck=_rest(GEAR, City(city), used),
        crews=sides,
        markers=markers,
        goods=goods or _spread(hq_goods),
        hq_goods=hq_goods,
        coins=coins,
        hq_coins=hq_coins,
        supply=TOTAL_COINS - sum(coins) - sum(hq_coins) if supply is None else supply,
        discards=(discard_cards[0], discard_cards[1]),
        hands_known=hands_known,
        returning=returning,
    )


def _side(crews: Mapping[int, Sequence[Sequence[str]]]) -> Side:
    return tuple(_crew(crews.get(location, ())) for location in range(3))


def _crew(stacks: Sequence[Sequence[str]]) -> Crew:
    thieves = [(CATALOGUE[stack[0]], thief) for thief, stack in enumerate(stacks)]
    gear = [(CATALOGUE[card], thief) for thief, stack in enumerate(stacks) for card in stack[1:]]
    if any(card.kind is not Kind.THIEF for card, _ in thieves):
        raise ValueError(f"every stack starts with a Thief: {stacks}")
    return tuple(thieves + gear)


def _spread(hq_goods: GoodsPair) -> tuple[Goods, Goods, Goods]:
    """The tokens not in a hideout, dealt round the Locations: 0, 1, 2, 0, ..."""
    beside = [[0, 0, 0] for _ in range(3)]
    place = 0
    for good in range(3):
        for _ in range(TOKENS_PER_TYPE - hq_goods[0][good] - hq_goods[1][good]):
            beside[place % 3][good] += 1
            place += 1
    return (tuple(beside[0]), tuple(beside[1]), tuple(beside[2]))


def _cards(ids: Iterable[str]) -> tuple[Card, ...]:
    return tuple(CATALOGUE[card] for card in ids)


def _sorted(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda card: card.id))


def _rest(cards: tuple[Card, ...], city: City, used: list[Card]) -> tuple[Card, ...]:
    left = Counter(card.id for card in deck(cards, city))
    left.subtract(card.id for card in used if card.kind is cards[0].kind)
    return tuple(CATALOGUE[card] for card in sorted(left.elements()))
