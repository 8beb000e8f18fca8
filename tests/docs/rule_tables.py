"""The card tables of docs/rules, rebuilt from the engines' catalogues and Age of Thieves' data
files: one markdown row per card, as the rules pages show them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from arena.games.caper import cards as classic
from arena.games.caper_common.draft import Kind
from arena.games.caper_europe.catalogue import CATALOGUE as EUROPE

AOT_DATA = Path(__file__).resolve().parents[2] / "arena" / "games" / "age_of_thieves" / "data"


def row(*cells: object) -> str:
    return "| " + " | ".join(str(cell).replace("|", "/") for cell in cells) + " |"


def classic_rows() -> Iterator[str]:
    for card in classic.THIEVES:
        yield row(card.name, card.city.value, card.income, card.text)
    for card in classic.GEAR:
        colour = card.colour.value.replace("_", " ")
        yield row(card.name, colour, card.cost, card.copies, card.text)
    for card in classic.LOCATIONS:
        yield row(card.name, card.city.value, card.text)


def europe_rows() -> Iterator[str]:
    for card in EUROPE.values():
        name, city, text, basis = f"`{card.id}`", card.name, f"`{card.text}`", card.provenance
        if card.kind is Kind.THIEF:
            yield row(name, city, card.city.value, card.income, text, basis)
        elif card.kind is Kind.GEAR:
            yield row(name, city, card.colour.value, card.cost, card.copies, text, basis)
        else:
            yield row(name, city, card.city.value, card.points, text, basis)


def _basis(provenance: list[dict[str, str]]) -> str:
    return "; ".join(
        f"{'**[PROPOSAL]**' if e['tag'] == 'PROPOSAL' else '[' + e['tag'] + ']'} {e['covers']}"
        for e in provenance
    )


def _load(name: str, key: str) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = json.loads((AOT_DATA / name).read_text())[key]
    return entries


def age_of_thieves_rows() -> Iterator[str]:
    cards = _load("action_cards.json", "cards")
    for c in (c for c in cards if c["kind"] == "general"):
        reach = c["range"] if c["range"] is not None else "–"
        yield row(
            c["id"], f"{c['name']} ({c['german']})", c["copies"], reach,
            "yes" if c["theft"] else "–", c["text"], _basis(c["provenance"]),
        )  # fmt: skip
    for e in _load("events.json", "events"):
        yield row(
            e["id"], f"{e['name']} ({e['german']})", e["deck"], e.get("compass") or "–",
            "yes" if e["immediate"] else "–", e["text"], _basis(e["provenance"]),
        )  # fmt: skip
    specials = {c["id"]: c for c in cards}
    for t in _load("thieves.json", "thieves"):
        s = specials[t["special"]]
        yield row(
            t["name"], f"**{t['passive']}**: {t['passive_text']}",
            f"{s['id']} **{s['name']}**: {s['text']}", _basis(t["provenance"] + s["provenance"]),
        )  # fmt: skip
