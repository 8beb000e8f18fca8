"""Cards of Caper: Europe as data: what a card is, where its text came from, and the decks.

Each card keeps its provenance (spec section 12): whether the rulebook prints its effect, prints
part of it, or the spec reconstructed it; whether its name is printed; which numbers were read
from a picture caption; and the spec's own basis note. `arena cards --game caper-europe` shows it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache

from arena.games.caper_common.draft import Kind
from arena.games.caper_europe.effects import Colour, Icon, Op, format_effects


class City(StrEnum):
    BASE = "base"
    PARIS = "paris"
    BARCELONA = "barcelona"
    ROME = "rome"
    LONDON = "london"


CITIES: tuple[City, ...] = (City.PARIS, City.BARCELONA, City.ROME, City.LONDON)
CITY_COLOURS = {  # R29
    City.PARIS: Colour.BLUE,
    City.BARCELONA: Colour.ORANGE,
    City.ROME: Colour.PINK,
    City.LONDON: Colour.DARKGREEN,
}


class Basis(StrEnum):
    """How much of a card's effect the rulebook prints (the columns of section 12.4)."""

    PRINTED = "as printed"
    PARTLY = "partly printed"
    RECONSTRUCTED = "reconstructed"


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card design; copies of a Gear share one `Card`. Compared by identity: every card in
    a game is an entry of `CATALOGUE`."""

    id: str
    name: str  # English
    german: str  # "" where the German name is unknown
    kind: Kind
    city: City
    colour: Colour
    cost: int  # Gear
    income: int  # Thief
    points: int  # Location
    copies: int
    icons: tuple[Icon, ...]  # in printed order (R9); for a Location its end effect
    ongoing: tuple[Icon, ...]  # a Location's ongoing effect (each player, R13)
    basis: Basis
    name_printed: bool
    captions: tuple[str, ...]  # the fields read from a picture caption [C]
    source: str  # the spec's basis note, verbatim
    one_shots: tuple[Icon, ...] = field(init=False)
    combos: tuple[Icon, ...] = field(init=False)
    end_effects: tuple[Icon, ...] = field(init=False)
    protects: tuple[Colour, ...] = field(init=False)
    burns: bool = field(init=False)  # has a one-shot BURN: its play names a target (R17)
    chooses_good: bool = field(init=False)  # has a `GRAB ?`: its play names a type (R10)

    def __post_init__(self) -> None:
        icons = self.icons if self.kind is not Kind.LOCATION else self.ongoing
        set_ = object.__setattr__  # derived once: the rules read these on every play
        set_(self, "one_shots", tuple(i for i in icons if i.is_one_shot))
        set_(self, "combos", tuple(i for i in icons if i.is_combo))
        set_(self, "end_effects", tuple(i for i in self.icons if i.is_end))
        set_(self, "protects", tuple(i.colour for i in icons if i.colour and i.op is Op.PROTECT))
        set_(self, "burns", any(i.op is Op.BURN for i in self.one_shots))
        set_(self, "chooses_good", any(i.op is Op.GRAB and i.good is None for i in self.one_shots))

    def __str__(self) -> str:
        return self.id

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self  # a catalogue entry: immutable and shared by every game

    @property
    def text(self) -> str:
        """The effect in the spec's notation; a Location's ongoing effect after a bar."""
        text = format_effects(self.icons)
        if self.kind is Kind.LOCATION and self.ongoing:
            text += f" | ongoing: {format_effects(self.ongoing)}"
        return text

    @property
    def provenance(self) -> str:
        """E.g. "reconstructed (name printed); cost from a caption"."""
        words = self.basis.value
        if self.basis is Basis.RECONSTRUCTED and self.name_printed:
            words += " (name printed)"
        if self.captions:
            words += f"; {' and '.join(self.captions)} from a caption"
        return words


@cache  # the same few decks for every game: built once each
def deck(cards: tuple[Card, ...], city: City) -> tuple[Card, ...]:
    """Every physical card of `cards` used in `city`, copies repeated, in catalogue order."""
    return tuple(
        card for card in cards if card.city in (City.BASE, city) for _ in range(card.copies)
    )
