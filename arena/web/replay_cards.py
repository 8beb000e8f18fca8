"""Every card a replay can show, from the engines' own card tables, as the viewer draws them.

A card is keyed as the game's observations name it: first-edition Caper by name, Caper: Europe
by id, Age of Thieves by id (action cards, events and thieves). Each entry holds what a card
face shows: name, kind, colour, cost, income or points, effect text (what `arena cards` lists;
Caper: Europe's in plain English, `europe_words`, with the spec's notation beside it).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from arena.games.age_of_thieves import catalogue
from arena.games.age_of_thieves.hadria import districts
from arena.games.age_of_thieves.queries import board
from arena.games.caper.cards import CATALOGUE as CAPER_CARDS
from arena.games.caper.cards import Card as CaperCard
from arena.games.caper_common.draft import Kind
from arena.games.caper_europe.cards import Card as EuropeCard
from arena.games.caper_europe.catalogue import CATALOGUE as EUROPE_CARDS
from arena.web.europe_words import card_words

CardFace = dict[str, str | int]


def card_table(game_id: str, config: Mapping[str, str | int]) -> dict[str, CardFace]:
    """The cards of `game_id` in the city of `config` (and the base cards)."""
    city = str(config.get("city", "base"))
    if game_id == "caper":
        return dict(_caper(city))
    if game_id == "caper-europe":
        return dict(_europe(city))
    if game_id == "age-of-thieves":
        return dict(_age_of_thieves())
    return {}


@cache
def _caper(city: str) -> tuple[tuple[str, CardFace], ...]:
    return tuple(
        (card.name, _caper_face(card))
        for card in CAPER_CARDS.values()
        if card.city.value in ("base", city)
    )


def _caper_face(card: CaperCard) -> CardFace:
    face: CardFace = {"name": card.name, "kind": card.kind.value, "text": card.text}
    if card.kind is Kind.GEAR:
        face |= {"colour": card.colour.value, "cost": card.cost, "copies": card.copies}
    elif card.kind is Kind.THIEF:
        face |= {"colour": "cream", "income": card.income}
    else:
        face |= {"colour": "location"}
    if card.goods:
        face["goods"] = ", ".join(good.value for good in card.goods)
    return face


@cache
def _europe(city: str) -> tuple[tuple[str, CardFace], ...]:
    return tuple(
        (card.id, _europe_face(card))
        for card in EUROPE_CARDS.values()
        if card.city.value in ("base", city)
    )


def _europe_face(card: EuropeCard) -> CardFace:
    # The effect in plain English; the spec's notation stays beside it, for the tooltip.
    face: CardFace = {"name": card.name, "kind": card.kind.value, "text": card_words(card)}
    face["notation"] = card.text
    if card.kind is Kind.GEAR:
        face |= {"colour": card.colour.value, "cost": card.cost, "copies": card.copies}
    elif card.kind is Kind.THIEF:
        face |= {"colour": "grey", "income": card.income}
    else:
        face |= {"colour": "location", "points": card.points}
    if card.german:
        face["german"] = card.german
    return face


@cache
def _age_of_thieves() -> tuple[tuple[str, CardFace], ...]:
    data = catalogue()
    faces: list[tuple[str, CardFace]] = []
    for card in data.cards:
        text = card.text + (f" Alone: {card.exclusive_text}" if card.exclusive_text else "")
        face: CardFace = {"name": card.name, "kind": card.kind.value, "text": text}
        face["colour"] = card.kind.value  # basic, special or general: the card's back
        if card.range_text:
            face["range"] = card.range_text
        faces.append((card.id, face))
    for event in data.events:
        kind = f"{event.deck.value} event"
        face = {"name": event.name, "kind": kind, "colour": kind, "text": event.text}
        faces.append((event.id, face))
    for thief in data.thieves:
        text = f"{thief.passive}: {thief.passive_text}"
        faces.append(
            (thief.id, {"name": thief.name, "kind": "thief", "colour": "thief", "text": text})
        )
    return tuple(faces)


def board_legend(game_id: str) -> dict[str, dict[str, str]]:
    """For Age of Thieves, the district of every space and the districts' names (public board
    data), so the viewer can sum the board up district by district; empty for other games."""
    if game_id != "age-of-thieves":
        return {}
    return {
        "districts": {info.id.value: info.name for info in districts()},
        "spaces": {node.id: node.district.value for node in board().nodes},
    }
