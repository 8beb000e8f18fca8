"""`arena cards --game caper-europe`: every card of Caper: Europe with where its text comes from,
so users can see which cards are reconstructions (spec section 12)."""

from __future__ import annotations

from rich.markup import escape
from rich.table import Table

from arena.games.api import ConfigError
from arena.games.caper_common.draft import Kind
from arena.games.caper_europe.cards import CITIES, Card
from arena.games.caper_europe.catalogue import CATALOGUE


def europe_cards_table(city: str | None) -> Table:
    """Four columns, so that the table stays readable on an 80-column terminal."""
    if city is not None and city not in {c.value for c in CITIES}:
        known = ", ".join(c.value for c in CITIES)
        raise ConfigError(f"unknown city {city!r}: Caper: Europe has {known}")
    table = Table(title="caper-europe cards" + (f" ({city})" if city else ""))
    table.add_column("id", overflow="fold")
    table.add_column("card")
    table.add_column("effect")
    table.add_column("provenance")
    for card in CATALOGUE.values():
        if city is None or card.city.value in ("base", city):
            name = card.name + (f" ({card.german})" if card.german else "")
            table.add_row(
                card.id,
                f"{escape(name)}\n[dim]{_facts(card)}[/]",
                escape(card.text),
                f"{card.provenance}\n[dim]{escape(card.source)}[/]",
            )
    return table


def _facts(card: Card) -> str:
    """Kind, city and the printed number: a Gear's colour, cost and copies, a Thief's income, a
    Location's points."""
    if card.kind is Kind.GEAR:
        return f"{card.city.value} gear, {card.colour.value}, cost {card.cost}, ×{card.copies}"
    if card.kind is Kind.THIEF:
        return f"{card.city.value} thief, income {card.income}"
    return f"{card.city.value} location, {card.points} points"
