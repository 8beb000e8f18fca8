"""Moves as people read them. The engines' action texts name cards by id where the first
edition's ids are the printed names: Caper: Europe writes `gear super_magnet at 2/2`, Age of
Thieves `plan B02`. Here each card id is put back into its English name, for every place a person
reads a move (the CLI's replay, the game page); bots, records and the protocol keep the ids.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache


def action_words(game_id: str, text: str) -> str:
    """`text`, an action of game `game_id` as its engine writes it, with card names for ids."""
    verb, space, rest = text.partition(" ")
    card, space2, tail = rest.partition(" ")  # in both games a card is the verb's first word
    name = _card_names(game_id).get(card)
    return text if name is None else f"{verb}{space}{name}{space2}{tail}"


@cache
def _card_names(game_id: str) -> dict[str, str]:
    known: dict[str, Callable[[], dict[str, str]]] = {
        "caper-europe": _europe_names,
        "age-of-thieves": _age_of_thieves_names,
    }
    return known[game_id]() if game_id in known else {}


def _europe_names() -> dict[str, str]:
    from arena.games.caper_europe.catalogue import CATALOGUE

    return {card_id: card.name for card_id, card in CATALOGUE.items()}


def _age_of_thieves_names() -> dict[str, str]:
    from arena.games.age_of_thieves.catalogue import catalogue

    return {card.id: card.name for card in catalogue().cards}
