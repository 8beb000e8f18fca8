"""The catalogue matches spec section 12 card by card, and keeps each card's provenance (12.4)."""

from __future__ import annotations

import pytest

from arena.games.caper_common.draft import Kind
from arena.games.caper_europe.cards import Basis, City
from arena.games.caper_europe.catalogue import CATALOGUE, GEAR, LOCATIONS, THIEVES
from arena.games.caper_europe.effects import Colour, format_effects, parse_effects

# id: (city, income, effect) -- section 12.1, copied from the spec
SPEC_THIEVES = {
    "starlet": ("base", 1, "PER set(yellow + any gear): PTS 2"),
    "auctioneer": ("base", 1, "PER antique@HQ: PTS 2"),
    "banker": ("base", 2, "PER yellow: MOVE 1"),
    "barber": ("base", 0, "PER set(thief + 2 any gear): MOVE 1"),
    "bon_vivant": ("base", 1, "PER set(green + any gear): PTS 2"),
    "cleaner": ("base", 1, "PER red: PTS 3"),
    "colonel": ("base", 2, "PER violet: MOVE 1"),
    "conductor": ("base", 1, "PER green: MOVE 1"),
    "dame": ("base", 1, "PER set(violet + any gear): PTS 2"),
    "gentleman": ("base", 1, "PER set(violet + green + yellow): PTS 4"),
    "illusionist": ("base", 1, "BURN"),
    "mime": ("base", 0, "MOVE 1; PER thief: PTS 1"),
    "nun": ("base", 3, "PROTECT green"),
    "smuggler": ("base", 1, "GRAB ?"),
    "tourist": ("base", 1, "PER set(3 any gear): MOVE 1"),
    "madame": ("paris", 1, "PER set(blue + any gear): PTS 2"),
    "chef": ("paris", 0, "PER blue: MOVE 1"),
    "artist": ("paris", 0, "PER green: MOVE 1"),
    "surrealist": ("barcelona", 0, "EYE green: PER good@HQ: PTS 1"),
    "anarchist": ("barcelona", 1, "EYE violet: PER violet@both: PTS 1"),
    "pickpocket": ("barcelona", 2, "GRAB ?"),
    "don": ("rome", 0, "MOVE 1; PER pink@opp: PTS 1"),
    "driver": ("rome", 1, "PER pink@discard: MOVE 1"),
    "soprano": ("rome", 0, "PER pink: PTS 2"),
    "bookie": ("london", 3, "PER coin@HQ: PTS 1"),
    "boxer": ("london", 1, "PER coin@HQ: MOVE 1"),
    "royal": ("london", 0, "LAUNDER; PER darkgreen: COIN 1"),
}

# id: (colour, cost, copies, effect) -- section 12.2
SPEC_GEAR = {
    "disguise_kit": ("violet", 0, 4, "MOVE 1"),
    "smoke_screen": ("violet", 1, 2, "MOVE 1; PTS 1"),
    "incognito_tuxedo": ("violet", 1, 1, "MOVE 2"),
    "false_documents": ("violet", 1, 1, "PER yellow: MOVE 1"),
    "wiretap": ("violet", 2, 1, "PER thief: MOVE 1"),
    "telescopic_hand": ("green", 1, 2, "GRAB diamond"),
    "suction_scalers": ("green", 1, 2, "GRAB painting"),
    "grappling_gun": ("green", 1, 2, "GRAB antique"),
    "briefcase": ("green", 3, 1, "PER green: PTS 1"),
    "blaze_shield_suit": ("green", 2, 1, "GRAB diamond; PROTECT green"),
    "stealth_suit": ("green", 2, 1, "GRAB ?"),
    "blazeblaster": ("red", 2, 3, "BURN"),
    "skeleton_key": ("yellow", 0, 4, "COIN 2"),
    "plasma_cutter": ("yellow", 1, 2, "COIN 4"),
    "super_magnet": ("yellow", 0, 2, "PER thief: COIN 1"),
    "sound_dish": ("yellow", 0, 1, "PTS 1"),
    "plans_caches": ("blue", 0, 4, "PER blue: PTS 1"),
    "secret_shades": ("blue", 0, 1, "MOVE 1; PROTECT blue"),
    "aqua_respirator": ("blue", 1, 1, "GRAB ?"),
    "hypno_organ": ("orange", 1, 4, "EYE orange: PTS 3"),
    "purse_fishing_rod": ("orange", 1, 1, "COIN 3"),
    "mosaic_mask": ("orange", 2, 1, "PER orange@both: PTS 1"),
    "utility_belt": ("pink", 0, 4, "MOVE 1; WIN: PTS 2"),
    "posto_segreto": ("pink", 1, 1, "PER violet@discard: MOVE 1"),
    "veloce_wheels": ("pink", 2, 1, "MOVE 2; PER pink gear@discard: PTS 1"),
    "laundromatic": ("darkgreen", 1, 4, "LAUNDER; PER coin@HQ: PTS 1"),
    "hollow_book": ("darkgreen", 1, 1, "MOVE 1; PROTECT darkgreen"),
    "signal_jammer": ("darkgreen", 0, 1, "PER darkgreen: MOVE 1"),
}

# id: (city, points, end effect, ongoing) -- section 12.3
SPEC_LOCATIONS = {
    "antique_shop": ("base", 4, "PER set(yellow + green): PTS 2", "—"),
    "art_gallery": ("base", 4, "PER set(violet + green): PTS 2", "—"),
    "bank": ("base", 5, "PER yellow: PTS 1", "PROTECT yellow"),
    "casino": ("base", 3, "PER thief: PTS 2", "—"),
    "chapel": ("base", 5, "PER thief: PTS 1", "PROTECT violet"),
    "gala": ("base", 5, "PER violet: PTS 1", "—"),
    "museum": ("base", 5, "PER green: PTS 1", "—"),
    "yacht": ("base", 4, "PER set(yellow + violet): PTS 2", "—"),
    "eiffel_tower": ("paris", 4, "PER set(blue + any gear): PTS 2", "PER blue: MOVE 1"),
    "louvre": ("paris", 3, "PER painting@HQ: PTS 2", "—"),
    "moulin_rouge": ("paris", 5, "PER thief: PTS 1", "PROTECT green"),
    "notre_dame": ("paris", 3, "PER antique@HQ: PTS 2", "—"),
    "versailles": ("paris", 3, "PER diamond@HQ: PTS 2", "—"),
    "sagrada_familia": ("barcelona", 4, "PER orange@both: PTS 1", "PROTECT orange"),
    "park_guell": ("barcelona", 3, "EYE green: PER good@HQ: PTS 1", "—"),
    "casa_batllo": ("barcelona", 5, "EYE violet: PTS 3", "—"),
    "la_rambla": ("barcelona", 3, "PER good@HQ: PTS 1", "—"),
    "la_boqueria": ("barcelona", 4, "PER yellow@both: PTS 1", "—"),
    "colosseum": ("rome", 2, "PER any gear@opp: PTS 1", "—"),
    "pantheon": ("rome", 6, "PER yellow@opp: PTS 1", "PER yellow: MOVE 1"),
    "trastevere": ("rome", 6, "PER violet@opp: PTS 1", "PER violet: MOVE 1"),
    "vatican": ("rome", 6, "PER green@opp: PTS 1", "PER green: MOVE 1"),
    "trevi_fountain": ("rome", 4, "PER set(2 pink): PTS 3", "PER pink@discard: MOVE 1"),
    "big_ben": ("london", 3, "PER coin@HQ: PTS 1", "PER thief: COIN 1"),
    "british_museum": ("london", 5, "PER green: PTS 1", "PER green: COIN 1"),
    "oxford_street": ("london", 4, "PER yellow: PTS 1", "PER yellow: COIN 1"),
    "piccadilly_circus": (
        "london",
        3,
        "PER set(darkgreen + any gear): PTS 2",
        "PER coin@HQ: MOVE 1",
    ),
    "tower_of_london": ("london", 3, "PER diamond@HQ: PTS 2", "PROTECT darkgreen"),
}


@pytest.mark.parametrize("card", SPEC_THIEVES)
def test_thief_as_in_the_spec(card: str) -> None:
    city, income, effect = SPEC_THIEVES[card]
    thief = CATALOGUE[card]
    assert (thief.kind, thief.city.value, thief.income, thief.colour) == (
        Kind.THIEF,
        city,
        income,
        Colour.GREY,
    )
    assert (format_effects(thief.icons), thief.copies) == (effect, 1)


@pytest.mark.parametrize("card", SPEC_GEAR)
def test_gear_as_in_the_spec(card: str) -> None:
    colour, cost, copies, effect = SPEC_GEAR[card]
    gear = CATALOGUE[card]
    assert (gear.kind, gear.colour.value, gear.cost, gear.copies) == (
        Kind.GEAR,
        colour,
        cost,
        copies,
    )
    assert format_effects(gear.icons) == effect


@pytest.mark.parametrize("card", SPEC_LOCATIONS)
def test_location_as_in_the_spec(card: str) -> None:
    city, points, end, ongoing = SPEC_LOCATIONS[card]
    place = CATALOGUE[card]
    assert (place.kind, place.city.value, place.points) == (Kind.LOCATION, city, points)
    assert (format_effects(place.icons), format_effects(place.ongoing)) == (end, ongoing)


def test_the_catalogue_holds_exactly_the_spec_cards() -> None:
    assert [c.id for c in THIEVES] == list(SPEC_THIEVES)
    assert [c.id for c in GEAR] == list(SPEC_GEAR)
    assert [c.id for c in LOCATIONS] == list(SPEC_LOCATIONS)
    assert sum(card.copies for card in GEAR) == 54


def test_every_city_adds_three_thieves_six_gear_and_five_locations() -> None:
    for city in City:
        thieves = sum(1 for c in THIEVES if c.city is city)
        gear = sum(c.copies for c in GEAR if c.city is city)
        places = sum(1 for c in LOCATIONS if c.city is city)
        expected = (15, 30, 8) if city is City.BASE else (3, 6, 5)
        assert (thieves, gear, places) == expected, city


def test_base_gear_colours_count_nine_nine_three_nine() -> None:
    base = [c for c in GEAR if c.city is City.BASE]
    counts = {colour: sum(c.copies for c in base if c.colour is colour) for colour in Colour}
    assert (
        counts[Colour.VIOLET],
        counts[Colour.GREEN],
        counts[Colour.RED],
        counts[Colour.YELLOW],
    ) == (9, 9, 3, 9)


def test_the_notation_round_trips_for_every_card() -> None:
    for card in CATALOGUE.values():
        for icons in (card.icons, card.ongoing):
            assert parse_effects(format_effects(icons)) == icons


def test_a_card_with_a_choice_has_no_other_one_shot() -> None:
    """A play names its burn target and grabbed type up front: that is only sound while nothing
    else the card does on play could change the options first."""
    for card in CATALOGUE.values():
        if card.burns or card.chooses_good:
            assert len(card.one_shots) == 1, card.id


# --- provenance (12.4) ---------------------------------------------------------------------


def _count(cards: tuple, basis: Basis, name_printed: bool | None = None) -> tuple[int, int]:  # type: ignore[type-arg]
    chosen = [
        c
        for c in cards
        if c.basis is basis and (name_printed is None or c.name_printed == name_printed)
    ]
    return len(chosen), sum(c.copies for c in chosen)


def test_provenance_summary_as_in_the_spec() -> None:
    assert _count(THIEVES, Basis.PRINTED) == (8, 8)
    assert _count(THIEVES, Basis.PARTLY) == (2, 2)
    assert _count(THIEVES, Basis.RECONSTRUCTED, True) == (11, 11)
    assert _count(THIEVES, Basis.RECONSTRUCTED, False) == (6, 6)
    assert _count(GEAR, Basis.PRINTED) == (9, 22)
    assert _count(GEAR, Basis.PARTLY) == (0, 0)
    assert _count(GEAR, Basis.RECONSTRUCTED, True) == (4, 5)
    assert _count(GEAR, Basis.RECONSTRUCTED, False) == (15, 27)
    assert _count(LOCATIONS, Basis.PRINTED) == (2, 2)
    assert _count(LOCATIONS, Basis.RECONSTRUCTED, True) == (3, 3)
    assert _count(LOCATIONS, Basis.RECONSTRUCTED, False) == (23, 23)
    everything = tuple(CATALOGUE.values())
    assert _count(everything, Basis.RECONSTRUCTED) == (62, 17 + 32 + 26)  # types, cards
    assert _count(everything, Basis.RECONSTRUCTED, True)[0] == 18


def test_printed_cards_are_the_ones_the_spec_names() -> None:
    printed = {c.id for c in CATALOGUE.values() if c.basis is Basis.PRINTED}
    assert printed == {
        "starlet", "banker", "bon_vivant", "colonel", "conductor", "dame", "gentleman", "surrealist",
        "disguise_kit", "smoke_screen", "incognito_tuxedo", "blazeblaster", "plasma_cutter",
        "sound_dish", "briefcase", "plans_caches", "hypno_organ", "louvre", "moulin_rouge",
    }  # fmt: skip
    assert {c.id for c in CATALOGUE.values() if c.basis is Basis.PARTLY} == {"chef", "anarchist"}


def test_provenance_text_shows_reconstructions_and_captions() -> None:
    assert CATALOGUE["louvre"].provenance == "as printed"
    assert CATALOGUE["museum"].provenance == "reconstructed (name printed); points from a caption"
    assert CATALOGUE["royal"].provenance == "reconstructed"
    assert CATALOGUE["hypno_organ"].provenance == "as printed; cost from a caption"
    assert all(card.source for card in CATALOGUE.values())
