"""Caper: Europe effects in plain English (arena.web.europe_words), checked against the spec's
own readings of its notation (docs/rules/caper-europe.md sections 6 and 12.0)."""

from __future__ import annotations

import re

import pytest

from arena.games.caper_europe.catalogue import CATALOGUE
from arena.web.europe_words import card_words
from arena.web.replay_cards import card_table

NOTATION = re.compile(r"PER |EYE |WIN:|PTS |MOVE |COIN |GRAB |PROTECT |LAUNDER|@|set\(|darkgreen")


def test_every_card_reads_as_words_not_notation() -> None:
    for card in CATALOGUE.values():
        words = card_words(card)
        assert words.endswith(".") and not NOTATION.search(words), (card.id, words)


@pytest.mark.parametrize(
    ("card_id", "words"),
    [
        # R24: a Location's end effect counts for its winner; `@opp` is the other player's crew.
        (
            "vatican",
            "The winner scores 1 point per green card in the other player's crew here. "
            "Ongoing, for each player: for each green card that joins your crew here, "
            "move the marker 1 space toward you.",  # R13: each player, fired by arrivals
        ),
        # R13: a discard-area ongoing effect applies only while that player has a Thief here.
        (
            "trevi_fountain",
            "The winner scores 3 points per set of (2 pink) in their crew here. Ongoing, for "
            "each player: for each pink card that enters your discard area while you have a "
            "Thief here, move the marker 1 space toward you.",
        ),
        # R16: a Location's PROTECT covers both players' cards of that colour there.
        (
            "bank",
            "The winner scores 1 point per yellow card in their crew here. "
            "Ongoing, for each player: yellow cards here cannot be burned.",
        ),
        ("louvre", "The winner scores 2 points per painting in their HQ."),
        # R25: the eye looks at the topmost Gear of the winner's crew.
        (
            "casa_batllo",
            "The winner scores 3 points if a violet Gear lies on top of a stack in their crew "
            "here.",
        ),
        # 6.2: a stand-alone icon is a one-shot on play; `PTS` counts at the end.
        (
            "mime",
            "On play: move the marker 1 space toward you. "
            "At the end: 1 point per Thief in your crew here.",
        ),
        # R12: "for each X, MOVE/COIN" is a permanent combo: on play and on later arrivals.
        (
            "banker",
            "Move the marker 1 space toward you per yellow card in your crew here, "
            "now and as more arrive.",
        ),
        ("utility_belt", "On play: move the marker 1 space toward you. "
                         "At the end: 2 points if you decide this Location."),  # R26
        ("royal", "On play: move 1 coin into your HQ. Gain 1 coin per dark green card in your "
                  "crew here, now and as more arrive."),  # R21 (launder), R29 (dark green)
        ("grappling_gun", "On play: take an antique from beside this Location into your HQ."),
        ("veloce_wheels", "On play: move the marker 2 spaces toward you. "
                          "At the end: 1 point per pink Gear in your discard area."),
        ("barber", "Move the marker 1 space toward you per set of (Thief + 2 Gear) in your "
                   "crew here, now and as more arrive."),  # R15: disjoint sets
        ("nun", "Your green cards in this crew cannot be burned."),  # R16, crew-level
    ],
)  # fmt: skip
def test_effects_read_as_the_spec_explains_them(card_id: str, words: str) -> None:
    assert card_words(CATALOGUE[card_id]) == words


def test_the_viewer_shows_words_and_keeps_the_notation_for_the_tooltip() -> None:
    faces = card_table("caper-europe", {"city": "rome"})
    assert faces["vatican"]["notation"] == "PER green@opp: PTS 1 | ongoing: PER green: MOVE 1"
    assert faces["vatican"]["text"] == card_words(CATALOGUE["vatican"])
    assert faces["vatican"]["points"] == 6
