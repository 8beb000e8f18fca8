"""The `Game` object both editions share: two seats (first-edition Caper has 3- and 4-player
variants), a turn marker that turns negative when the game ends, and delegation to an edition's
rules modules, named once in an `Edition`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from arena.games.api import Config, GameError, Result, SeatRole

Hands = tuple[tuple[str, ...], ...]
MASTERMINDS = (SeatRole("mastermind", "cream"), SeatRole("mastermind", "mint"))


class TurnState(Protocol):
    @property
    def to_move(self) -> int: ...  # the seat to act, negative once the game is over


S = TypeVar("S", bound=TurnState)
A = TypeVar("A")
O = TypeVar("O")  # noqa: E741 - the observation type, beside S and A
O_in = TypeVar("O_in", contravariant=True)


class Renderer(Protocol[O_in]):
    def __call__(self, obs: O_in, omniscient_hands: Hands | None = None) -> str: ...


@dataclass(frozen=True, slots=True)
class Edition(Generic[S, A, O]):
    """An edition's rules, as the functions its modules provide."""

    create: Callable[[Config, int], S]
    legal_actions: Callable[[S], Sequence[A]]
    apply: Callable[[S, A, int | None], S]
    result: Callable[[S], Result]
    observe: Callable[[S, int], O]
    render: Renderer[O]
    action_text: Callable[[A], str]
    parse_action: Callable[[str], A]
    hands: Callable[[S], Hands]  # every seat's hand by card name, for the omniscient rendering
    seats: Callable[[S], int] = lambda state: 2  # how many seats play the game of this state
    # An action as another seat sees it, when not every action is public (3- and 4-player Caper).
    seen_text: Callable[[S, A, int], str] | None = None


class CaperFamilyGame(Generic[S, A, O]):
    id: str
    name: str
    rules_version: int  # bump whenever any behaviour changes: ratings are keyed by it
    num_players = 2  # in the default configuration; `seat_count` tells a game's own
    edition: Edition[S, A, O]

    def create(self, config: Config, seed: int) -> S:
        return self.edition.create(config, seed)

    def seat_count(self, state: S) -> int:
        """How many seats play the game of `state` (its `players` setting)."""
        return self.edition.seats(state)

    def seat_roles(self, config: Config) -> tuple[SeatRole, ...]:
        """Every seat's role and team in a game set up with `config`: two Masterminds."""
        return MASTERMINDS

    def current_player(self, state: S) -> int | None:
        return None if state.to_move < 0 else state.to_move

    def legal_actions(self, state: S) -> Sequence[A]:
        return self.edition.legal_actions(state)

    def apply(self, state: S, action: A, seat: int | None = None) -> S:
        return self.edition.apply(state, action, seat)

    def is_terminal(self, state: S) -> bool:
        return state.to_move < 0

    def result(self, state: S) -> Result:
        if state.to_move >= 0:
            raise GameError("the game is not over yet: no result to give")
        return self.edition.result(state)

    def observation(self, state: S, seat: int) -> O:
        seats = self.edition.seats(state)
        if not (isinstance(seat, int) and 0 <= seat < seats):
            listed = ", ".join(map(str, range(seats - 1))) + f" and {seats - 1}"
            raise GameError(f"this {self.name} game has seats {listed}, not {seat}")
        return self.edition.observe(state, seat)

    def action_text(self, action: A) -> str:
        return self.edition.action_text(action)

    def action_seen_by(self, state: S, action: A, seat: int) -> str:
        """`action`, played in `state`, as `seat` sees it: its text, unless it is hidden."""
        if self.edition.seen_text is None:
            return self.edition.action_text(action)
        return self.edition.seen_text(state, action, seat)

    def parse_action(self, text: str) -> A:
        return self.edition.parse_action(text)

    def render(self, state: S, seat: int | None = None) -> str:
        obs = self.edition.observe(state, 0 if seat is None else seat)
        if seat is not None:
            return self.edition.render(obs)
        return self.edition.render(obs, omniscient_hands=self.edition.hands(state))
