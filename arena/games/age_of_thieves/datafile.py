"""Reading the game's JSON data files: provenance, versions, and precise errors.

The rulebook lacks the board and most card texts, so the spec fills the gaps with proposals
(spec section 22). Every entry of every data file says where it comes from, so that the real
board or cards can replace the proposals by changing data and the versions, never code. A broken
file raises `DataError` naming the file, the entry and the field.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources
from typing import Any, TypeVar

from arena.games.api import GameError

E = TypeVar("E", bound=StrEnum)
SECTION = re.compile(r"^\d+(\.\d+)*$")  # a section of the spec, e.g. "22.2"


class DataError(GameError):
    """A data file of Age of Thieves is malformed; the message names the file and the entry."""


class Tag(StrEnum):
    """The spec's provenance tags (its table at the top): what a statement rests on."""

    RULEBOOK = "R"  # stated in the German rulebook
    EXAMPLE = "R-ex"  # follows from a worked example of the rulebook
    ENGLISH = "EN"  # English rulebook excerpts
    PUBLISHER = "PUB"  # the publisher's web page
    INFERRED = "INF"  # inferred from indirect evidence
    PROPOSAL = "PROPOSAL"  # in no source: invented for the digital version


@dataclass(frozen=True, slots=True)
class Source:
    """One part of an entry and what it rests on, e.g. [R] §9.3 "text"."""

    tag: Tag
    section: str  # the spec section recording it
    covers: str  # which part of the entry: "text", "range", "position"...

    def __str__(self) -> str:
        return f"[{self.tag.value}] §{self.section} {self.covers}"


@dataclass(frozen=True, slots=True)
class Provenance:
    sources: tuple[Source, ...]

    def __str__(self) -> str:
        return "; ".join(str(source) for source in self.sources)

    @property
    def proposal(self) -> bool:
        """Whether any part of the entry is a reconstruction, to flag wherever it is listed."""
        return any(source.tag is Tag.PROPOSAL for source in self.sources)

    @property
    def summary(self) -> str:
        """ "proposal" (no source at all), "partly proposal", or "sourced"."""
        if all(source.tag is Tag.PROPOSAL for source in self.sources):
            return "proposal"
        return "partly proposal" if self.proposal else "sourced"


@dataclass(frozen=True, slots=True)
class Versions:
    """Which rules the data follows (the Game API's integer) and which edition of the data."""

    rules: int
    data: str


@dataclass(frozen=True, slots=True)
class Entry:
    """One JSON object of a data file with where it sits, so that every error names it."""

    where: str  # "action_cards.json: G07"
    raw: Mapping[str, Any]

    def fail(self, message: str) -> DataError:
        return DataError(f"{self.where}: {message}")

    def only(self, *keys: str) -> None:
        """Refuse unknown keys: a typo would otherwise drop a field silently."""
        unknown = sorted(set(self.raw) - set(keys))
        if unknown:
            raise self.fail(f"unknown field {unknown[0]!r} (known: {', '.join(keys)})")

    def get(self, key: str) -> Any:
        if key not in self.raw:
            raise self.fail(f"missing field {key!r}")
        return self.raw[key]

    def text(self, key: str, *, empty: bool = False) -> str:
        value = self.get(key)
        if not isinstance(value, str) or (not empty and not value.strip()):
            raise self.fail(f"{key!r} must be a non-empty string, got {value!r}")
        return value

    def integer(self, key: str, minimum: int = 0) -> int:
        value = self.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise self.fail(f"{key!r} must be an integer >= {minimum}, got {value!r}")
        return value

    def flag(self, key: str) -> bool:
        value = self.get(key)
        if not isinstance(value, bool):
            raise self.fail(f"{key!r} must be true or false, got {value!r}")
        return value

    def choice(self, key: str, kind: type[E]) -> E:
        value = self.get(key)
        try:
            return kind(value)
        except ValueError:
            known = ", ".join(repr(member.value) for member in kind)
            raise self.fail(f"{key!r} must be one of {known}, got {value!r}") from None

    def items(self, key: str) -> list[Any]:
        value = self.get(key)
        if not isinstance(value, list):
            raise self.fail(f"{key!r} must be a list, got {type(value).__name__}")
        return value

    def provenance(self) -> Provenance:
        parts = self.items("provenance")
        if not parts:
            raise self.fail("'provenance' is empty: every entry says where it comes from")
        return Provenance(tuple(self._source(i, part) for i, part in enumerate(parts)))

    def _source(self, i: int, raw: Any) -> Source:
        part = entry(f"{self.where}: provenance[{i}]", raw)
        part.only("tag", "section", "covers")
        section = part.text("section")
        if not SECTION.match(section):
            raise part.fail(f"'section' must be a spec section like '22.2', got {section!r}")
        return Source(part.choice("tag", Tag), section, part.text("covers"))


def entry(where: str, raw: Any) -> Entry:
    if not isinstance(raw, Mapping):
        raise DataError(f"{where}: must be an object, got {type(raw).__name__}")
    return Entry(where, raw)


def entries(file: Entry, key: str, label: str = "id") -> list[Entry]:
    """The objects of a list field, each named by its `label` field (else by its position)."""
    found: list[Entry] = []
    seen: set[str] = set()
    for i, raw in enumerate(file.items(key)):
        value = raw.get(label) if isinstance(raw, Mapping) else None
        named = value if isinstance(value, str) and value else f"{key}[{i}]"
        if named in seen:
            raise DataError(f"{file.where}: duplicate {label} {named!r} in {key!r}")
        seen.add(named)
        found.append(entry(f"{file.where}: {named}", raw))
    return found


def read(name: str, text: str | None = None) -> Entry:
    """The data file `name` of this package (or `text` in its place, for tests and new data)."""
    if text is None:
        text = resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as error:
        raise DataError(f"{name}: not JSON: {error}") from None
    return entry(name, raw)


def versions(file: Entry, format_: str) -> Versions:
    """Check the file's format and read its versions."""
    found = file.text("format")
    if found != format_:
        raise file.fail(f"'format' must be {format_!r}, got {found!r}")
    return Versions(file.integer("rules_version", 1), file.text("data_version"))
