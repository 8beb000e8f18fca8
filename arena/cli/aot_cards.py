"""`arena cards --game age-of-thieves`: the action cards, events and thieves of Age of Thieves
with where each comes from, so users see which are the rulebook's and which the spec's proposals
(spec sections 22.2-22.4)."""

from __future__ import annotations

from rich.markup import escape
from rich.table import Table

from arena.games import refuse_city
from arena.games.age_of_thieves import (
    AGE_OF_THIEVES,
    ActionCard,
    Deck,
    Event,
    Provenance,
    Thief,
    catalogue,
)


def aot_cards_tables(city: str | None) -> tuple[Table, ...]:
    """Three tables of four columns each, readable on an 80-column terminal."""
    refuse_city(AGE_OF_THIEVES.id, city)
    data = catalogue()
    version = ", ".join(f"{name} {v.data}" for name, v in data.versions)
    cards = _table(f"age-of-thieves action cards (rules {data.versions[0][1].rules}; {version})")
    for card in data.cards:
        cards.add_row(
            card.id, _card_facts(card), escape(_card_text(card)), _provenance(card.provenance)
        )
    events = _table("age-of-thieves events")
    for event in data.events:
        events.add_row(
            event.id, _event_facts(event), escape(event.text), _provenance(event.provenance)
        )
    thieves = _table("age-of-thieves thieves")
    for thief in data.thieves:
        thieves.add_row(
            thief.id, _thief_facts(thief), escape(_thief_text(thief)), _provenance(thief.provenance)
        )
    return cards, events, thieves


def _table(title: str) -> Table:
    table = Table(title=escape(title))
    table.add_column("id", overflow="fold")
    table.add_column("name")
    table.add_column("effect")
    table.add_column("provenance")
    return table


def _provenance(provenance: Provenance) -> str:
    """A summary that flags proposals (spec section 0), then each source on its own line."""
    lines = "\n".join(escape(str(source)) for source in provenance.sources)
    return f"[bold]{provenance.summary}[/]\n{lines}"


def _card_facts(card: ActionCard) -> str:
    facts = [card.kind.value, f"×{card.copies}"]
    if card.range_text:
        facts.append(f"range {card.range_text}")
    if card.theft:
        facts.append("theft")
    if card.owner:
        facts.append(card.owner)
    return f"{escape(card.name)} ({escape(card.german)})\n[dim]{', '.join(facts)}[/]"


def _card_text(card: ActionCard) -> str:
    if card.exclusive_text:
        return f"{card.text}\nOr, as the round's only card: {card.exclusive_text}"
    return card.text


def _event_facts(event: Event) -> str:
    facts = [event.deck.value]
    if event.deck is Deck.CALM and event.compass is not None:
        facts.append(f"compass {event.compass.value}")
    if event.immediate:
        facts.append("immediately")
    return f"{escape(event.name)} ({escape(event.german)})\n[dim]{', '.join(facts)}[/]"


def _thief_facts(thief: Thief) -> str:
    return f"{escape(thief.name)}\n[dim]{escape(thief.epithet)} ({escape(thief.german_epithet)})[/]"


def _thief_text(thief: Thief) -> str:
    special = catalogue().card(thief.special)
    return f"{thief.passive}: {thief.passive_text}\nSpecial: {special.name} ({special.id})"
