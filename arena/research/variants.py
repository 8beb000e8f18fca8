"""The games and configurations the research adapters offer, and how a finished game pays out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.games import GAMES, get_game
from arena.games.api import Config, ConfigError, Game, Result
from arena.games.caper.cards import City
from arena.games.caper_europe.cards import CITIES as EUROPE_CITIES

PLAYERS = (2, 3, 4)


@dataclass(frozen=True, slots=True)
class Variant:
    """One game set up one way: what `game.create(config, seed)` is called with."""

    game_id: str
    config: tuple[tuple[str, str | int], ...] = ()

    @property
    def game(self) -> Game[Any, Any]:
        return get_game(self.game_id)

    @property
    def settings(self) -> dict[str, str | int]:
        return dict(self.config)

    @property
    def players(self) -> int:
        return int(self.settings.get("players", 2))

    def __str__(self) -> str:
        settings = ",".join(f"{key}={value}" for key, value in self.config)
        return f"{self.game_id}({settings})" if settings else self.game_id


def variant(game_id: str, **config: str | int) -> Variant:
    """`game_id` with `config`, checked by creating one game: `ConfigError` names what is wrong."""
    if game_id not in GAMES:
        raise ConfigError(f"unknown game {game_id!r}: known games are {', '.join(GAMES)}")
    chosen = Variant(game_id, tuple(sorted(config.items())))
    players = config.get("players", 2)
    if str(players) not in {str(n) for n in PLAYERS}:
        raise ConfigError(f"players must be 2, 3 or 4, not {players!r}")
    chosen.game.create(chosen.settings, 0)  # raises ConfigError for a bad city or setting
    return chosen


def all_variants() -> list[Variant]:
    """Every game and variant: Caper in each city with 2, 3 and 4 players, Caper: Europe in
    each city, Age of Thieves with 2, 3 and 4 players."""
    caper = [
        variant("caper", city=city.value, players=n)
        for city in City
        if city is not City.BASE
        for n in PLAYERS
    ]
    europe = [variant("caper-europe", city=city.value) for city in EUROPE_CITIES]
    thieves = [variant("age-of-thieves", players=n) for n in PLAYERS]
    return caper + europe + thieves


def seat_count(game: Game[Any, Any], config: Config) -> int:
    roles: tuple[object, ...] = game.seat_roles(config)  # type: ignore[attr-defined]
    return len(roles)


def winning_seats(game: Game[Any, Any], config: Config, result: Result) -> frozenset[int]:
    """The seats that won: the listed winners (a team, or nobody when everyone loses), else the
    winner's team, else the winner alone. Empty for a drawn game."""
    listed = result.details.get("winners")
    if isinstance(listed, list):
        return frozenset(int(seat) for seat in listed)
    if result.winner is None:
        return frozenset()
    roles = game.seat_roles(config)  # type: ignore[attr-defined]
    team = roles[result.winner].team
    if not team:
        return frozenset({result.winner})
    return frozenset(seat for seat, role in enumerate(roles) if role.team == team)


def returns(game: Game[Any, Any], config: Config, result: Result) -> list[float]:
    """+1 for each winning seat, -1 for every other; 0 for everyone in a drawn game (no winner
    and no list of winners). When everyone loses (Age of Thieves), everyone gets -1."""
    seats = seat_count(game, config)
    if result.winner is None and "winners" not in result.details:
        return [0.0] * seats
    won = winning_seats(game, config, result)
    return [1.0 if seat in won else -1.0 for seat in range(seats)]
