"""Action cards, events and thieves of Age of Thieves as data (spec sections 9, 10, 22.2-22.4).

The rulebook names 14 of the 70 general cards, 2 of the 23 events and the thieves' specials only
in part; the spec fills the rest with flagged proposals. Each entry keeps its provenance, and each
file its versions, so `arena cards --game age-of-thieves` can show which is which.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from arena.games.age_of_thieves.board import OUTER, District
from arena.games.age_of_thieves.datafile import (
    DataError,
    Entry,
    Provenance,
    Versions,
    entries,
    read,
    versions,
)

CARDS_FILE, EVENTS_FILE, THIEVES_FILE = "action_cards.json", "events.json", "thieves.json"


class CardKind(StrEnum):
    BASIC = "basic"  # Move and Ambush: every thief owns one of each
    SPECIAL = "special"  # one per thief, used by discarding the general card lying on it
    GENERAL = "general"  # the 70-card action deck, single use


@dataclass(frozen=True, slots=True)
class ActionCard:
    id: str
    name: str  # English
    german: str
    kind: CardKind
    copies: int
    range: int | None  # the printed range in spaces; None: no number printed
    district_range: bool  # the "S" symbol: any space of the thief's current district
    theft: bool  # the theft symbol (spec section 13)
    text: str  # for a basic card its upper, combinable effect
    exclusive_text: str  # a basic card's lower effect, allowed as the round's only card
    owner: str  # a special's thief; "" otherwise
    provenance: Provenance

    @property
    def range_text(self) -> str:
        return "S" if self.district_range else "" if self.range is None else str(self.range)


class Deck(StrEnum):
    CALM = "calm"
    ALARM = "alarm"


@dataclass(frozen=True, slots=True)
class Event:
    id: str
    name: str
    german: str
    deck: Deck
    compass: District | None  # a calm event's outer district (the yellow jewel goes there)
    immediate: bool  # "Sofort": takes effect once; otherwise it lasts the round
    text: str
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class Thief:
    id: str
    name: str
    epithet: str
    german_epithet: str
    passive: str  # the passive ability's name
    passive_text: str
    special: str  # the id of his special action card
    provenance: Provenance


@dataclass(frozen=True, slots=True)
class Catalogue:
    """Everything of one data edition; `versions` per file, all on the same rules version."""

    cards: tuple[ActionCard, ...]
    events: tuple[Event, ...]
    thieves: tuple[Thief, ...]
    versions: tuple[tuple[str, Versions], ...]  # (file, versions)

    def card(self, id: str) -> ActionCard:
        for card in self.cards:
            if card.id == id:
                return card
        raise DataError(f"no action card {id!r}")

    def of_kind(self, kind: CardKind) -> tuple[ActionCard, ...]:
        return tuple(card for card in self.cards if card.kind is kind)

    def deck(self, deck: Deck) -> tuple[Event, ...]:
        return tuple(event for event in self.events if event.deck is deck)


@cache
def catalogue() -> Catalogue:
    """The package's cards, events and thieves, checked against each other."""
    return load_catalogue()


def load_catalogue(
    cards: str | None = None, events: str | None = None, thieves: str | None = None
) -> Catalogue:
    """Load the three files (or the given JSON texts in their place) and cross-check them."""
    cards_file, events_file, thieves_file = (
        read(CARDS_FILE, cards),
        read(EVENTS_FILE, events),
        read(THIEVES_FILE, thieves),
    )
    found = (
        (CARDS_FILE, versions(cards_file, "age-of-thieves/action-cards/1")),
        (EVENTS_FILE, versions(events_file, "age-of-thieves/events/1")),
        (THIEVES_FILE, versions(thieves_file, "age-of-thieves/thieves/1")),
    )
    rules = {v.rules for _, v in found}
    if len(rules) > 1:
        listed = ", ".join(f"{name} {v.rules}" for name, v in found)
        raise DataError(f"the data files follow different rules versions: {listed}")
    result = Catalogue(
        tuple(_card(e) for e in _entries(cards_file, "cards")),
        tuple(_event(e) for e in _entries(events_file, "events")),
        tuple(_thief(e) for e in _entries(thieves_file, "thieves")),
        found,
    )
    _check_owners(result)
    return result


def _entries(file: Entry, key: str) -> list[Entry]:
    file.only("format", "rules_version", "data_version", key)
    return entries(file, key)


_CARD_KEYS: tuple[str, ...] = (
    "id",
    "name",
    "german",
    "kind",
    "copies",
    "range",
    "theft",
    "text",
    "exclusive_text",
    "owner",
    "provenance",
)


def _card(raw: Entry) -> ActionCard:
    raw.only(*_CARD_KEYS)
    kind = raw.choice("kind", CardKind)
    reach = raw.get("range")
    if not (reach is None or reach == "S" or (type(reach) is int and reach >= 0)):
        raise raw.fail(f"'range' must be a number of spaces, \"S\" or null, got {reach!r}")
    exclusive, owner = raw.text("exclusive_text", empty=True), raw.text("owner", empty=True)
    if (kind is CardKind.BASIC) != bool(exclusive):
        raise raw.fail("a basic card, and only a basic card, has an 'exclusive_text'")
    if (kind is CardKind.SPECIAL) != bool(owner):
        raise raw.fail("a special card, and only a special card, has an 'owner'")
    return ActionCard(
        id=raw.text("id"),
        name=raw.text("name"),
        german=raw.text("german", empty=True),
        kind=kind,
        copies=raw.integer("copies", 1),
        range=reach if type(reach) is int else None,
        district_range=reach == "S",
        theft=raw.flag("theft"),
        text=raw.text("text"),
        exclusive_text=exclusive,
        owner=owner,
        provenance=raw.provenance(),
    )


def _event(raw: Entry) -> Event:
    raw.only("id", "name", "german", "deck", "compass", "immediate", "text", "provenance")
    deck = raw.choice("deck", Deck)
    compass = raw.get("compass")
    if deck is Deck.CALM and compass not in {d.value for d in OUTER}:
        raise raw.fail(f"a calm event shows a compass N, E, S or W, got {compass!r}")
    if deck is Deck.ALARM and compass is not None:
        raise raw.fail(f"an alarm event shows no compass, got {compass!r}")
    return Event(
        id=raw.text("id"),
        name=raw.text("name"),
        german=raw.text("german"),
        deck=deck,
        compass=None if compass is None else District(compass),
        immediate=raw.flag("immediate"),
        text=raw.text("text"),
        provenance=raw.provenance(),
    )


_THIEF_KEYS: tuple[str, ...] = (
    "id",
    "name",
    "epithet",
    "german_epithet",
    "passive",
    "passive_text",
    "special",
    "provenance",
)


def _thief(raw: Entry) -> Thief:
    raw.only(*_THIEF_KEYS)
    return Thief(
        id=raw.text("id"),
        name=raw.text("name"),
        epithet=raw.text("epithet"),
        german_epithet=raw.text("german_epithet"),
        passive=raw.text("passive"),
        passive_text=raw.text("passive_text"),
        special=raw.text("special"),
        provenance=raw.provenance(),
    )


def _check_owners(found: Catalogue) -> None:
    """Each thief has his own special card, and each special card belongs to a listed thief."""
    thieves = {thief.id for thief in found.thieves}
    for thief in found.thieves:
        card = found.card(thief.special)
        if card.kind is not CardKind.SPECIAL or card.owner != thief.id:
            raise DataError(
                f"{THIEVES_FILE}: {thief.id}: special {card.id!r} is not a special card "
                f"owned by {thief.id!r}"
            )
    for card in found.of_kind(CardKind.SPECIAL):
        if card.owner not in thieves:
            raise DataError(f"{CARDS_FILE}: {card.id}: owner {card.owner!r} is no thief")
