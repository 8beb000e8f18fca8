"""Rules engines, pure and standard-library only, and the registry that names them."""

from __future__ import annotations

from typing import Any

from arena.compiled.loader import enable_from_environment

enable_from_environment()  # the compiled Caper engine if ARENA_COMPILED_ENGINE asks for it

from arena.games.age_of_thieves import AGE_OF_THIEVES  # noqa: E402
from arena.games.api import ConfigError, Game  # noqa: E402
from arena.games.caper import CAPER  # noqa: E402
from arena.games.caper_europe import CAPER_EUROPE  # noqa: E402

GAMES: dict[str, Game[Any, Any]] = {
    CAPER.id: CAPER,
    CAPER_EUROPE.id: CAPER_EUROPE,
    AGE_OF_THIEVES.id: AGE_OF_THIEVES,
}

# Games played on one board, with no "city" setting: the commands' --city does not apply to them.
CITYLESS = frozenset({AGE_OF_THIEVES.id})


DEFAULT_CITY = "paris"


def base_config(game_id: str, city: str | None = None, players: int = 2) -> dict[str, str | int]:
    """A `game_id` game's configuration from the commands' common options: the city (for a game
    that has cities; `DEFAULT_CITY` unless given) and the number of players when it is not the
    default 2. A city given for a game played on one board is refused, not ignored."""
    if game_id in CITYLESS:
        refuse_city(game_id, city)
        config: dict[str, str | int] = {}
    else:
        config = {"city": city or DEFAULT_CITY}
    return config | ({"players": players} if players != 2 else {})


def refuse_city(game_id: str, city: str | None) -> None:
    """`ConfigError` if a city is given for `game_id`, a game played on one board."""
    if city is not None:
        name = get_game(game_id).name
        raise ConfigError(f"{name} has no cities: --city {city!r} does not apply")


def get_game(game_id: str) -> Game[Any, Any]:
    """The game registered as `game_id`; `ConfigError` listing the known ones otherwise."""
    try:
        return GAMES[game_id]
    except KeyError:
        raise ConfigError(f"unknown game {game_id!r}: known games are {', '.join(GAMES)}") from None
