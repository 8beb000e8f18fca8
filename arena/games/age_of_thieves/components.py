"""City tiles, jewels, figures and the other pieces of Age of Thieves (spec sections 2, 14, 15).

All of these counts are stated by the rulebook; the file still carries provenance and versions
like the others, so a later edition of the game changes data only.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from arena.games.age_of_thieves.datafile import (
    DataError,
    Entry,
    Provenance,
    Versions,
    entries,
    read,
    versions,
)

COMPONENTS_FILE = "components.json"


class Timing(StrEnum):
    """When a city tile acts (spec section 14)."""

    INSTANT = "instant"  # on reveal, then boxed
    ONE_USE = "one_use"  # kept on the sheet until used
    PERMANENT = "permanent"  # kept for the game (on the sheet or on its space)


@dataclass(frozen=True, slots=True)
class CityTile:
    id: str
    name: str
    german: str
    count: int
    timing: Timing
    ap: int  # AP it is worth when spent in planning (Informer 1, Guild Agent 2)
    text: str
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class Piece:
    """Jewels, figures, effect tiles and AP markers."""

    id: str
    name: str
    german: str
    count: int
    limited: bool  # only jewels and guard figures run out; the rest is patched with proxies
    vp: int
    text: str
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class Components:
    city_tiles: tuple[CityTile, ...]
    pieces: tuple[Piece, ...]
    versions: Versions

    def piece(self, id: str) -> Piece:
        for piece in self.pieces:
            if piece.id == id:
                return piece
        raise DataError(f"{COMPONENTS_FILE}: no piece {id!r}")


@cache
def components() -> Components:
    return load_components()


def load_components(text: str | None = None) -> Components:
    file = read(COMPONENTS_FILE, text)
    file.only("format", "rules_version", "data_version", "city_tiles", "pieces")
    found = versions(file, "age-of-thieves/components/1")
    tiles = tuple(_tile(raw) for raw in entries(file, "city_tiles"))
    pieces = tuple(_piece(raw) for raw in entries(file, "pieces"))
    return Components(tiles, pieces, found)


def _tile(raw: Entry) -> CityTile:
    raw.only("id", "name", "german", "count", "timing", "ap", "text", "provenance")
    timing, ap = raw.choice("timing", Timing), raw.integer("ap")
    if ap and timing is not Timing.ONE_USE:
        raise raw.fail("only a one-use tile is worth AP")
    return CityTile(
        id=raw.text("id"),
        name=raw.text("name"),
        german=raw.text("german"),
        count=raw.integer("count", 1),
        timing=timing,
        ap=ap,
        text=raw.text("text"),
        provenance=raw.provenance(),
    )


def _piece(raw: Entry) -> Piece:
    raw.only("id", "name", "german", "count", "limited", "vp", "text", "provenance")
    return Piece(
        id=raw.text("id"),
        name=raw.text("name"),
        german=raw.text("german"),
        count=raw.integer("count", 1),
        limited=raw.flag("limited"),
        vp=raw.integer("vp"),
        text=raw.text("text"),
        provenance=raw.provenance(),
    )
