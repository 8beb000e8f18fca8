"""Seats, sides, lineups and deals: who plays which seat of a game, which deal and rotation each
game of an encounter plays, and where each side placed.

A game's seats are grouped into sides: the seats of one team form a side, a seat with no team is a
side alone. An entrant plays one side, every seat of it: in the 4-player Caper team game one
entrant plays both seats of its team, each with its own bot and its own view (V11). Entrants take
sides by rotation: in rotation r, entrant i plays side (i + r) mod k, so a deal played in all k
rotations puts every entrant in every side once (V12: a duplicate table of the Snitch game; with
two sides rotation 1 is the second game of a duplicate pair, seats swapped).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

from arena.games.api import Config, ConfigError, Game, Result, SeatRole
from arena.stats import ranks

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat of a game as every player is told about it."""

    name: str  # the entrant playing the seat
    role: str  # "mastermind", "snitch", "lookout"; "player" for a game without roles
    team: str  # "cream", "mint"; "" for a seat that plays for itself alone


@dataclass(frozen=True, slots=True)
class Layout:
    """The seats of a game set up with one config, and how they group into sides."""

    roles: tuple[SeatRole, ...]
    sides: tuple[tuple[int, ...], ...]  # the seats of each side; sides in order of first seat

    @property
    def seat_count(self) -> int:
        return len(self.roles)

    def side_of(self, seat: int) -> int:
        return next(side for side, seats in enumerate(self.sides) if seat in seats)

    def seat_names(self, lineup: Sequence[str]) -> tuple[str, ...]:
        """The entrant in each seat, `lineup` naming the entrant of each side."""
        if len(lineup) != len(self.sides):
            raise ConfigError(
                f"this game has {len(self.sides)} sides, so it needs {len(self.sides)} players, "
                f"not {len(lineup)}"
            )
        return tuple(lineup[self.side_of(seat)] for seat in range(self.seat_count))

    def seat_infos(self, names: Sequence[str]) -> tuple[SeatInfo, ...]:
        return tuple(
            SeatInfo(name, role.role, role.team)
            for name, role in zip(names, self.roles, strict=True)
        )

    def label(self, side: int) -> str:
        """A side's name for people: its team, else its first seat's role ("snitch"); its
        seat when other sides share that name (Age of Thieves: every seat a "player", each
        game drawing its thieves anew)."""
        names = [self._name(s) for s in range(len(self.sides))]
        name = names[side]
        return name if names.count(name) == 1 else f"seat {self.sides[side][0]}"

    def _name(self, side: int) -> str:
        role = self.roles[self.sides[side][0]]
        return role.team or role.role


def layout(game: Game[Any, Any], config: Config) -> Layout:
    """The seats and sides of `game` set up with `config`. A game that does not describe its
    seats (no `seat_roles`) has `num_players` seats of role "player", each a side alone."""
    describe = getattr(game, "seat_roles", None)
    roles: tuple[SeatRole, ...] = (
        tuple(describe(config)) if describe else (SeatRole("player"),) * game.num_players
    )
    teams: dict[str, list[int]] = {}
    sides: list[list[int]] = []
    for seat, role in enumerate(roles):
        if role.team and role.team in teams:
            teams[role.team].append(seat)
            continue
        sides.append([seat])
        if role.team:
            teams[role.team] = sides[-1]
    return Layout(roles, tuple(tuple(side) for side in sides))


def lineup(entrants: Sequence[T], rotation: int) -> tuple[T, ...]:
    """The entrant of each side in `rotation`: entrant i plays side (i + rotation) mod k."""
    k = len(entrants)
    return tuple(entrants[(side - rotation) % k] for side in range(k))


def deals(games: int, seed: int, duplicate: bool, sides: int = 2) -> list[tuple[int, int]]:
    """(seed, rotation) for each game of a match (`lineup`: with two sides, rotation 1
    swaps the seats). Without duplicates the rotations still take turns."""
    if duplicate:
        return [(seed + index // sides, index % sides) for index in range(games)]
    return [(seed + index, index % sides) for index in range(games)]


def winning_seats(result: Result) -> frozenset[int]:
    """Every seat that won: a whole team, the Snitch alone, or the winner of a 2-player game."""
    winners = result.details.get("winners", [result.winner])
    return frozenset(seat for seat in winners if seat is not None)


class SideResult(NamedTuple):
    """How one side did in a game."""

    score: int  # its seats' score (the seats of a team share it)
    place: float  # 1 for first (`placements`)
    won: bool  # a win shared by the sides not at fault included


def side_results(result: Result, seats: Layout) -> list[SideResult]:
    won = winning_seats(result)
    return [
        SideResult(result.scores[side[0]], place, bool(won & set(side)))
        for side, place in zip(seats.sides, placements(result, seats), strict=True)
    ]


def placements(result: Result, seats: Layout) -> tuple[float, ...]:
    """Each side's place, 1 for the first: the side that won first (the game's own tie-breaks
    decide it), the others by score; sides level share the mean of the places they span. A
    forfeit scores every seat 0 and names the sides not at fault as winners, so the faulty side
    is last and the others share first place (1.5 each at a table of three)."""
    won = winning_seats(result)
    return ranks([(bool(won & set(side)), result.scores[side[0]]) for side in seats.sides])


def forfeit_result(seats: Layout, loser: int, reason: str) -> Result:
    """The result of a game lost by `loser`'s fault: every seat scores 0 and the loser's side
    loses. In a two-sided game the other side wins, as its first seat (2 players, or the other
    team's Mastermind); with three sides or more the sides not at fault share the win, listed
    in `details["winners"]`, and `winner` is None (there is no single winner)."""
    losing = seats.sides[seats.side_of(loser)]
    winners = [seat for seat in range(seats.seat_count) if seat not in losing]
    details: dict[str, Any] = {"forfeit": loser, "reason": reason}
    if seats.seat_count > 2:  # as in the engines' results: 2-player games name one winner
        details["winners"] = winners
    winner = winners[0] if len(seats.sides) == 2 else None
    scores = tuple(0 for _ in seats.roles)
    return Result(scores, winner, tuple({} for _ in seats.roles), "forfeit", details)
