"""Build a Caper state by hand from card names: for tests, rulebook examples and bug reports.

A stack is written bottom to top, the Thief first; a name starting with `~` is flipped:

>>> from arena.games.caper.scenario import scenario
>>> state = scenario(locations=("The Louvre", "The Bank", "The Chapel"),
...                  board={0: {0: [["The Dame", "Helping Hand", "Plasma Cutter"]]}})
>>> state.board[0][0][0][1][0].name
'Helping Hand'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from arena.games.caper.cards import CATALOGUE, Card, City, Kind, deck
from arena.games.caper.rules import EMPTY_SIDE
from arena.games.caper.state import ROUNDS, TOTAL_COINS, Pending, Side, Stack, State

BoardSpec = Mapping[int, Mapping[int, Sequence[Sequence[str]]]]  # seat -> location -> stacks


def scenario(
    *,
    city: str = "paris",
    locations: Sequence[str] = ("The Louvre", "The Bank", "The Chapel"),
    round: int = 1,
    to_move: int | None = None,
    hands: Sequence[Iterable[str]] = ((), ()),
    board: BoardSpec | None = None,
    coins: tuple[int, int] = (0, 0),
    laundered: tuple[int, int] = (0, 0),
    supply: int | None = None,
    discards: Sequence[Iterable[str]] = ((), ()),
    hands_known: bool = False,
    pending: Sequence[tuple[int, str, int]] = (),
) -> State:
    """A state in `round` (1-6, or 7 for the end-of-game abilities); decks hold the unused cards."""
    board = board or {}
    sides = tuple(_side(board.get(seat, {})) for seat in (0, 1))
    hand_cards = [_cards(names) for names in hands]
    discard_cards = [_cards(names) for names in discards]
    used = [*hand_cards[0], *hand_cards[1], *discard_cards[0], *discard_cards[1]]
    used += [card for side in sides for crew in side for stack in crew for card, _ in stack]
    index = round - 1
    first = ROUNDS[index].first if index < len(ROUNDS) else ROUNDS[-1].first
    if supply is None:
        supply = TOTAL_COINS - sum(coins) - sum(laundered)
    return State(
        city=City(city),
        locations=tuple(CATALOGUE[name] for name in locations),  # type: ignore[arg-type]
        round=index,
        to_move=first if to_move is None else to_move,
        hands=(tuple(sorted(hand_cards[0], key=_name)), tuple(sorted(hand_cards[1], key=_name))),
        thief_deck=_rest(Kind.THIEF, City(city), used),
        gear_deck=_rest(Kind.GEAR, City(city), used),
        board=(sides[0], sides[1]),
        coins=coins,
        supply=supply,
        laundered=laundered,
        discards=(discard_cards[0], discard_cards[1]),
        hands_known=hands_known,
        pending=tuple(Pending(*p) for p in pending),
    )


def _side(crews: Mapping[int, Sequence[Sequence[str]]]) -> Side:
    built = [tuple(_stack(stack) for stack in crews.get(loc, ())) for loc in range(3)]
    return (built[0], built[1], built[2]) if built else EMPTY_SIDE


def _stack(names: Sequence[str]) -> Stack:
    return tuple((CATALOGUE[name.lstrip("~")], name.startswith("~")) for name in names)


def _cards(names: Iterable[str]) -> tuple[Card, ...]:
    return tuple(CATALOGUE[name] for name in names)


def _rest(kind: Kind, city: City, used: list[Card]) -> tuple[Card, ...]:
    left = Counter(card.name for card in deck(kind, city))
    left.subtract(card.name for card in used if card.kind is kind)
    return tuple(CATALOGUE[name] for name in sorted(left.elements()))


def _name(card: Card) -> str:
    return card.name


def one_location(
    mine: Sequence[Sequence[str]] = (),
    theirs: Sequence[Sequence[str]] = (),
    location: str = "The Gala",
    city: str = "paris",
    **options: Any,
) -> State:
    """Seat 0 has `mine` and seat 1 `theirs` at location 0 (`location`); the rest is empty."""
    others = [name for name in ("The Bank", "The Chapel", "The Yacht") if name != location][:2]
    return scenario(
        city=city, locations=(location, *others), board={0: {0: mine}, 1: {0: theirs}}, **options
    )


def flipped(stacks: Sequence[Sequence[str]], name: str) -> list[list[str]]:
    """The same stacks with every copy of `name` flipped face down."""
    return [["~" + card if card == name else card for card in stack] for stack in stacks]
