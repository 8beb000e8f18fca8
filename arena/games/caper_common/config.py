"""The one setting both editions take: the city, "paris" unless configured."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from enum import StrEnum
from typing import TypeVar

from arena.games.api import Config, ConfigError

C = TypeVar("C", bound=StrEnum)


def city_setting(config: Config, cities: Sequence[C], game: str, extra: Collection[str] = ()) -> C:
    """The configured city of `cities`; `ConfigError` naming an unknown setting (other than
    "city" and the edition's `extra` ones) or city."""
    unknown = set(config) - {"city", *extra}
    if unknown:
        raise ConfigError(f"unknown {game} setting(s): {', '.join(sorted(unknown))}")
    name = str(config.get("city", "paris")).lower()
    for city in cities:
        if city.value == name:
            return city
    choices = ", ".join(city.value for city in cities)
    raise ConfigError(f"unknown city {name!r}: choose one of {choices}")
