"""The draft both editions play: six rounds of Thief and Gear cards, dealt per round, one card
played by each player per turn, then whole hands swapped until one card each is left.

Classic R1 and Europe R2/R3 fix the same table: 4/6/3/6/2/6 cards, seat 0 starting the Thief
rounds and seat 1 the Gear rounds.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import NamedTuple, Protocol, TypeVar

from arena.games.api import GameOverError, IllegalActionError, WrongSeatError

T = TypeVar("T")
Pair = tuple[T, T]


class Kind(StrEnum):
    THIEF = "thief"
    GEAR = "gear"
    LOCATION = "location"


class Round(NamedTuple):
    kind: Kind
    hand_size: int
    first: int  # the seat that plays first in every turn of the round


ROUNDS: tuple[Round, ...] = (
    Round(Kind.THIEF, 4, 0),
    Round(Kind.GEAR, 6, 1),
    Round(Kind.THIEF, 3, 0),
    Round(Kind.GEAR, 6, 1),
    Round(Kind.THIEF, 2, 0),
    Round(Kind.GEAR, 6, 1),
)
FINAL_ROUND = len(ROUNDS)  # a state's round index once all six rounds are played


def deal(
    cards: tuple[T, ...], size: int, top_seat: int
) -> tuple[Pair[tuple[T, ...]], tuple[T, ...]]:
    """Two hands of `size` from the top of `cards`, `top_seat` taking the first `size`; and the
    rest of the deck. Hands are left in deck order: each edition sorts them its own way."""
    top, next_, rest = cards[:size], cards[size : 2 * size], cards[2 * size :]
    return ((top, next_) if top_seat == 0 else (next_, top)), rest


def turn_over(round_index: int, mover: int) -> bool:
    """Whether both players have played this turn once `mover` has played."""
    return mover != ROUNDS[round_index].first


def round_over(hands: Pair[tuple[T, ...]]) -> bool:
    """At the end of a turn: one card each is left, so it is discarded and the round ends;
    otherwise the players swap whole hands."""
    return len(hands[0]) < 2


def swap(hands: Pair[T]) -> Pair[T]:
    return hands[1], hands[0]


def with_seat(pair: Pair[T], seat: int, value: T) -> Pair[T]:
    """`pair` with `seat`'s entry replaced."""
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def redeal_hidden(
    hands: Pair[tuple[T, ...]],
    hands_known: bool,
    round_index: int,
    decks: Pair[tuple[T, ...]],
    seat: int,
    rng: random.Random,
    key: Callable[[T], str],
) -> tuple[Pair[tuple[T, ...]], Pair[tuple[T, ...]]]:
    """Hands and (Thief, Gear) decks with everything `seat` cannot see dealt anew: the deck
    order and, before the round's first swap, the opponent's hand (sorted by `key`). Used to
    prove that observations leak nothing."""
    opponent = 1 - seat
    playing = round_index < FINAL_ROUND
    hidden = hands[opponent] if playing and not hands_known else ()
    thief_round = playing and ROUNDS[round_index].kind is Kind.THIEF
    thieves = list(decks[0]) + (list(hidden) if thief_round else [])
    gear = list(decks[1]) + ([] if thief_round else list(hidden))
    rng.shuffle(thieves)
    rng.shuffle(gear)
    pool = thieves if thief_round else gear
    if hidden:
        hands = with_seat(hands, opponent, tuple(sorted(pool[: len(hidden)], key=key)))
        del pool[: len(hidden)]
    return hands, (tuple(thieves), tuple(gear))


def deal_unseen(
    unseen: Pair[list[T]],
    round_kind: str,
    seat: int,
    hand: tuple[T, ...],
    opponent_hand: tuple[T, ...] | None,
    opponent_hand_size: int,
    rng: random.Random,
    key: Callable[[T], str],
) -> tuple[Pair[tuple[T, ...]], Pair[tuple[T, ...]]]:
    """Hands and (Thief, Gear) decks consistent with what `seat` knows, from the `unseen` Thieves
    and Gear: both shuffled and, while the opponent's hand is unknown, that hand dealt from the
    deck of the round's kind (sorted by `key`). For determinized search."""
    thieves, gear = unseen
    rng.shuffle(thieves)
    rng.shuffle(gear)
    if opponent_hand is None:
        opponent_hand = ()
        if round_kind != "end":
            pool = thieves if round_kind == Kind.THIEF.value else gear
            dealt, pool[:] = pool[:opponent_hand_size], pool[opponent_hand_size:]
            opponent_hand = tuple(sorted(dealt, key=key))
    hands = (hand, opponent_hand) if seat == 0 else (opponent_hand, hand)
    return hands, (tuple(thieves), tuple(gear))


class HandView(Protocol):
    """What an observation of either edition says about the two hands."""

    @property
    def seat(self) -> int: ...
    @property
    def hand(self) -> tuple[str, ...]: ...
    @property
    def opponent_hand(self) -> tuple[str, ...] | None: ...
    @property
    def opponent_hand_size(self) -> int: ...


def hand_text(view: HandView, seat: int, omniscient: Sequence[Sequence[str]] | None) -> str:
    """`seat`'s hand as the viewer knows it (or as it is, given `omniscient` hands), for people."""
    if omniscient is not None:
        return ", ".join(omniscient[seat]) or "-"
    if seat == view.seat:
        return ", ".join(view.hand) or "-"
    if view.opponent_hand is not None:
        return ", ".join(view.opponent_hand) or "-"
    return f"{view.opponent_hand_size} unknown cards"


def turn_error(to_move: int, seat: int | None) -> IllegalActionError | None:
    """Why nobody, or not `seat`, may act now (`to_move` is -1 once the game is over)."""
    if to_move < 0:
        return GameOverError("the game is over: no more actions can be played")
    if seat is not None and seat != to_move:
        return WrongSeatError(f"it is seat {to_move}'s turn, not seat {seat}'s")
    return None
