"""One behaviour test per card of section 12, by what the card does: its end points, what its
play changes, what it protects, and for a Location its field when won and its ongoing effect.
The last test checks that every card id of the catalogue is covered."""

from __future__ import annotations

from typing import Any

import pytest

from arena.games.caper_europe.catalogue import CATALOGUE
from arena.games.caper_europe.scenario import scenario
from arena.games.caper_europe.scoring import score
from arena.games.caper_europe.table import burn_targets
from tests.games.caper_europe.helpers import after, card_points

M = "mime"  # a Thief to carry Gear; its own MOVE 1 is not replayed by `scenario`
D = "dame"

# (card, city, my stacks at location 0, opponent's stacks there, other options, end points)
END_CASES: list[tuple[str, str, list[list[str]], list[list[str]], dict[str, Any], int]] = [
    ("starlet", "paris", [["starlet", "skeleton_key", "plasma_cutter", "disguise_kit"], [M, "sound_dish"]], [], {}, 4),
    ("auctioneer", "paris", [["auctioneer"]], [], {"hq_goods": ((0, 1, 2), (0, 0, 1))}, 4),
    ("bon_vivant", "paris", [["bon_vivant", "telescopic_hand", "suction_scalers"], [M, "skeleton_key", "sound_dish"]], [], {}, 4),
    ("cleaner", "paris", [["cleaner", "blazeblaster", "blazeblaster"]], [[D, "blazeblaster"]], {}, 6),
    ("dame", "paris", [["dame", "disguise_kit", "skeleton_key", "smoke_screen"]], [], {}, 2),
    ("gentleman", "paris", [["gentleman", "disguise_kit", "telescopic_hand", "skeleton_key"]], [], {}, 4),
    ("mime", "paris", [["mime"], [D]], [["banker"]], {}, 2),
    ("madame", "paris", [["madame", "plans_caches", "disguise_kit"]], [], {}, 2),
    ("surrealist", "barcelona", [["surrealist", "telescopic_hand"]], [], {"hq_goods": ((1, 1, 1), (0, 0, 0))}, 3),
    ("anarchist", "barcelona", [["anarchist", "disguise_kit"]], [[D, "smoke_screen"]], {}, 2),
    ("don", "rome", [["don"]], [[D, "utility_belt", "utility_belt"]], {}, 2),
    ("soprano", "rome", [["soprano", "utility_belt", "posto_segreto"]], [], {}, 4),
    ("bookie", "london", [["bookie"]], [], {"hq_coins": (3, 1)}, 3),
    ("smoke_screen", "paris", [[M, "smoke_screen"]], [], {}, 1),
    ("briefcase", "paris", [[M, "briefcase", "telescopic_hand"]], [], {}, 2),
    ("sound_dish", "paris", [[M, "sound_dish"]], [], {}, 1),
    ("plans_caches", "paris", [[M, "plans_caches", "plans_caches", "secret_shades"]], [], {}, 3),
    ("hypno_organ", "barcelona", [[M, "hypno_organ"]], [], {}, 3),
    ("mosaic_mask", "barcelona", [[M, "mosaic_mask"]], [[D, "hypno_organ"]], {}, 2),
    ("utility_belt", "rome", [[M, "utility_belt"]], [], {"markers": (1, 0, 0)}, 2),
    ("veloce_wheels", "rome", [[M, "veloce_wheels"]], [], {"discards": (("utility_belt", "posto_segreto", "driver"), ())}, 2),
    ("laundromatic", "london", [[M, "laundromatic"]], [], {"hq_coins": (2, 0)}, 2),
]  # fmt: skip


@pytest.mark.parametrize(("card", "city", "mine", "theirs", "options", "points"), END_CASES)
def test_end_points(card: str, city: str, mine: list[list[str]], theirs: list[list[str]], options: dict[str, Any], points: int) -> None:  # fmt: skip
    state = scenario(city=city, crews={0: {0: mine}, 1: {0: theirs}}, **options)
    assert card_points(state, 0, 0, card) == points


# (action of seat 0, city, my stacks at location 0, opponent's there, options, expected fields)
PLAY_CASES: list[tuple[str, str, list[list[str]], list[list[str]], dict[str, Any], dict[str, Any]]] = [
    ("thief banker at 0", "paris", [[M, "skeleton_key", "plasma_cutter"]], [], {}, {"markers": (2, 0, 0)}),
    ("thief barber at 0", "paris", [[M, "skeleton_key", "sound_dish", "disguise_kit"]], [], {}, {"markers": (1, 0, 0)}),
    ("thief colonel at 0", "paris", [[M, "disguise_kit", "smoke_screen"]], [], {}, {"markers": (2, 0, 0), "coins": (5, 3)}),
    ("thief conductor at 0", "paris", [[M, "telescopic_hand"]], [], {}, {"markers": (1, 0, 0)}),
    ("thief illusionist at 0 burn 0", "paris", [], [[D, "disguise_kit"]], {"markers": (-1, 0, 0)}, {"markers": (0, 0, 0)}),
    ("thief mime at 0", "paris", [], [], {}, {"markers": (1, 0, 0), "coins": (3, 3)}),
    ("thief smuggler at 0 grab painting", "paris", [], [], {}, {"hq_goods": ((0, 1, 0), (0, 0, 0))}),
    ("thief tourist at 0", "paris", [[M, "skeleton_key", "sound_dish", "disguise_kit"]], [], {}, {"markers": (1, 0, 0)}),
    ("thief chef at 0", "paris", [[M, "plans_caches", "secret_shades"]], [], {}, {"markers": (2, 0, 0)}),
    ("thief artist at 0", "paris", [[M, "telescopic_hand", "suction_scalers"]], [], {}, {"markers": (2, 0, 0)}),
    ("thief pickpocket at 0 grab antique", "barcelona", [], [], {"coins": (0, 0)}, {"coins": (2, 0), "hq_goods": ((0, 0, 1), (0, 0, 0))}),
    ("thief driver at 0", "rome", [], [], {"discards": (("utility_belt", "posto_segreto"), ())}, {"markers": (2, 0, 0)}),
    ("thief boxer at 0", "london", [], [], {"hq_coins": (2, 0)}, {"markers": (2, 0, 0)}),
    ("thief royal at 0", "london", [[M, "hollow_book", "signal_jammer"]], [], {"coins": (0, 0)}, {"coins": (2, 0), "hq_coins": (1, 0)}),
    ("gear disguise_kit at 0/0", "paris", [[M]], [], {}, {"markers": (1, 0, 0)}),
    ("gear incognito_tuxedo at 0/0", "paris", [[M]], [], {}, {"markers": (2, 0, 0), "coins": (2, 3)}),
    ("gear false_documents at 0/0", "paris", [[M, "skeleton_key", "plasma_cutter"]], [], {}, {"markers": (2, 0, 0)}),
    ("gear wiretap at 0/1", "paris", [[M], [D]], [], {}, {"markers": (2, 0, 0), "coins": (1, 3)}),
    ("gear telescopic_hand at 0/0", "paris", [[M]], [], {}, {"hq_goods": ((1, 0, 0), (0, 0, 0))}),
    ("gear suction_scalers at 0/0", "paris", [[M]], [], {}, {"hq_goods": ((0, 1, 0), (0, 0, 0))}),
    ("gear grappling_gun at 0/0", "paris", [[M]], [], {}, {"hq_goods": ((0, 0, 1), (0, 0, 0))}),
    ("gear blaze_shield_suit at 0/0", "paris", [[M]], [], {}, {"hq_goods": ((1, 0, 0), (0, 0, 0)), "coins": (1, 3)}),
    ("gear stealth_suit at 0/0 grab painting", "paris", [[M]], [], {}, {"hq_goods": ((0, 1, 0), (0, 0, 0))}),
    ("gear blazeblaster at 0/0 burn 0", "paris", [[M]], [[D, "skeleton_key"]], {}, {"coins": (1, 1), "supply": 8}),
    ("gear skeleton_key at 0/0", "paris", [[M]], [], {"coins": (0, 0)}, {"coins": (2, 0)}),
    ("gear plasma_cutter at 0/0", "paris", [[M]], [], {"coins": (1, 0)}, {"coins": (4, 0)}),
    ("gear super_magnet at 0/1", "paris", [[M], [D]], [], {"coins": (0, 0)}, {"coins": (2, 0)}),
    ("gear secret_shades at 0/0", "paris", [[M]], [], {}, {"markers": (1, 0, 0)}),
    ("gear aqua_respirator at 0/0 grab diamond", "paris", [[M]], [], {}, {"hq_goods": ((1, 0, 0), (0, 0, 0))}),
    ("gear purse_fishing_rod at 0/0", "barcelona", [[M]], [], {"coins": (1, 0)}, {"coins": (3, 0)}),
    ("gear posto_segreto at 0/0", "rome", [[M]], [], {"discards": (("disguise_kit", "smoke_screen"), ())}, {"markers": (2, 0, 0)}),
    ("gear veloce_wheels at 0/0", "rome", [[M]], [], {}, {"markers": (2, 0, 0)}),
    ("gear utility_belt at 0/0", "rome", [[M]], [], {}, {"markers": (1, 0, 0)}),
    ("gear laundromatic at 0/0", "london", [[M]], [], {"coins": (1, 0)}, {"coins": (0, 0), "hq_coins": (1, 0)}),
    ("gear hollow_book at 0/0", "london", [[M]], [], {}, {"markers": (1, 0, 0)}),
    ("gear signal_jammer at 0/0", "london", [[M, "hollow_book"]], [], {}, {"markers": (2, 0, 0)}),
]  # fmt: skip


@pytest.mark.parametrize(("action", "city", "mine", "theirs", "options", "expected"), PLAY_CASES)
def test_play(action: str, city: str, mine: list[list[str]], theirs: list[list[str]], options: dict[str, Any], expected: dict[str, Any]) -> None:  # fmt: skip
    state = after(action, city=city, crews={0: {0: mine}, 1: {0: theirs}}, **options)
    assert {field: getattr(state, field) for field in expected} == expected


# (card, city, the opponent's stacks at location 0, location 0): the opponent's top card is safe
PROTECT_CASES = [
    ("nun", "paris", [["nun"], [D, "telescopic_hand"]], "museum"),
    ("blaze_shield_suit", "paris", [[D, "blaze_shield_suit"]], "museum"),
    ("secret_shades", "paris", [[D, "secret_shades"]], "museum"),
    ("hollow_book", "london", [[D, "hollow_book"]], "museum"),
    ("bank", "paris", [[D, "skeleton_key"]], "bank"),
    ("chapel", "paris", [[D, "disguise_kit"]], "chapel"),
    ("moulin_rouge", "paris", [[D, "telescopic_hand"]], "moulin_rouge"),
    ("sagrada_familia", "barcelona", [[D, "hypno_organ"]], "sagrada_familia"),
    ("tower_of_london", "london", [[D, "laundromatic"]], "tower_of_london"),
]


@pytest.mark.parametrize(("card", "city", "theirs", "location"), PROTECT_CASES)
def test_protection(card: str, city: str, theirs: list[list[str]], location: str) -> None:
    state = scenario(
        city=city, locations=(location, "casino", "gala"), crews={0: {0: [[M]]}, 1: {0: theirs}}
    )
    assert burn_targets(state, 0, 0) == ()
    plain = scenario(
        city=city,
        locations=("casino", "museum", "gala"),
        crews={0: {0: [[M]]}, 1: {0: [[D, "skeleton_key"]]}},
    )
    assert burn_targets(plain, 0, 0) == (0,)  # without protection the top Gear can burn


# (location, city, my stacks, opponent's stacks, options, field for seat 0 winning at +1)
LOCATION_CASES: list[tuple[str, str, list[list[str]], list[list[str]], dict[str, Any], int]] = [
    ("antique_shop", "paris", [[M, "skeleton_key", "telescopic_hand"]], [], {}, 6),
    ("art_gallery", "paris", [[M, "disguise_kit", "telescopic_hand"]], [], {}, 6),
    ("bank", "paris", [[M, "skeleton_key", "plasma_cutter"]], [], {}, 7),
    ("casino", "paris", [[M], [D]], [], {}, 7),
    ("chapel", "paris", [[M], [D]], [], {}, 7),
    ("gala", "paris", [[M, "disguise_kit"]], [], {}, 6),
    ("museum", "paris", [[M, "telescopic_hand"]], [], {}, 6),
    ("yacht", "paris", [[M, "skeleton_key", "disguise_kit"]], [], {}, 6),
    ("eiffel_tower", "paris", [[M, "plans_caches", "skeleton_key"]], [], {}, 6),
    ("louvre", "paris", [[M]], [], {"hq_goods": ((0, 2, 0), (0, 1, 0))}, 7),
    ("moulin_rouge", "paris", [[M], [D], ["banker"]], [], {}, 8),
    ("notre_dame", "paris", [[M]], [], {"hq_goods": ((0, 0, 2), (0, 0, 0))}, 7),
    ("versailles", "paris", [[M]], [], {"hq_goods": ((2, 0, 0), (0, 0, 0))}, 7),
    ("sagrada_familia", "barcelona", [[M, "hypno_organ"]], [[D, "mosaic_mask"]], {}, 6),
    ("park_guell", "barcelona", [[M, "telescopic_hand"]], [], {"hq_goods": ((1, 1, 0), (0, 0, 0))}, 5),
    ("casa_batllo", "barcelona", [[M, "disguise_kit"]], [], {}, 8),
    ("la_rambla", "barcelona", [[M]], [], {"hq_goods": ((1, 1, 1), (0, 0, 0))}, 6),
    ("la_boqueria", "barcelona", [[M, "skeleton_key"]], [[D, "plasma_cutter"]], {}, 6),
    ("colosseum", "rome", [[M]], [[D, "skeleton_key", "disguise_kit"]], {}, 4),
    ("pantheon", "rome", [[M]], [[D, "skeleton_key"]], {}, 7),
    ("trastevere", "rome", [[M]], [[D, "disguise_kit"]], {}, 7),
    ("vatican", "rome", [[M]], [[D, "telescopic_hand"]], {}, 7),
    ("trevi_fountain", "rome", [[M, "utility_belt", "utility_belt"]], [], {}, 7),
    ("big_ben", "london", [[M]], [], {"hq_coins": (2, 0)}, 5),
    ("british_museum", "london", [[M, "telescopic_hand"]], [], {}, 6),
    ("oxford_street", "london", [[M, "skeleton_key"]], [], {}, 5),
    ("piccadilly_circus", "london", [[M, "hollow_book", "skeleton_key"]], [], {}, 5),
    ("tower_of_london", "london", [[M]], [], {"hq_goods": ((1, 0, 0), (0, 0, 0))}, 5),
]  # fmt: skip


@pytest.mark.parametrize(("location", "city", "mine", "theirs", "options", "field"), LOCATION_CASES)
def test_location_field(location: str, city: str, mine: list[list[str]], theirs: list[list[str]], options: dict[str, Any], field: int) -> None:  # fmt: skip
    crews = {0: {0: mine}, 1: {0: theirs}}
    state = scenario(
        city=city, locations=(location, "casino", "gala"), crews=crews, markers=(1, 0, 0), **options
    )
    assert score(state).location_fields[0][0] == field


def test_park_guell_scores_its_goods_only_with_a_green_eye() -> None:
    state = scenario(
        city="barcelona",
        locations=("park_guell", "casino", "gala"),
        crews={0: {0: [[M, "telescopic_hand", "skeleton_key"]]}},
        markers=(1, 0, 0),
        hq_goods=((1, 1, 0), (0, 0, 0)),
    )
    assert score(state).location_fields[0][0] == 3


# (location, city, action of seat 0, my stacks there, options, expected fields)
ONGOING_CASES: list[tuple[str, str, str, list[list[str]], dict[str, Any], dict[str, Any]]] = [
    ("eiffel_tower", "paris", "gear plans_caches at 0/0", [[M]], {}, {"markers": (1, 0, 0)}),
    ("pantheon", "rome", "gear skeleton_key at 0/0", [[M]], {}, {"markers": (1, 0, 0)}),
    ("trastevere", "rome", "gear disguise_kit at 0/0", [[M]], {}, {"markers": (2, 0, 0)}),
    ("vatican", "rome", "gear telescopic_hand at 0/0", [[M]], {}, {"markers": (1, 0, 0)}),
    ("trevi_fountain", "rome", "discard utility_belt", [[M]], {}, {"markers": (1, 0, 0)}),
    ("big_ben", "london", "thief nun at 0", [], {"coins": (0, 0)}, {"coins": (4, 0)}),
    ("british_museum", "london", "gear telescopic_hand at 0/0", [[M]], {}, {"coins": (3, 3)}),
    ("oxford_street", "london", "gear skeleton_key at 0/0", [[M]], {"coins": (0, 0)}, {"coins": (3, 0)}),
    ("piccadilly_circus", "london", "gear laundromatic at 0/0", [[M]], {}, {"markers": (1, 0, 0)}),
]  # fmt: skip


@pytest.mark.parametrize(
    ("location", "city", "action", "mine", "options", "expected"), ONGOING_CASES
)
def test_location_ongoing_effect(location: str, city: str, action: str, mine: list[list[str]], options: dict[str, Any], expected: dict[str, Any]) -> None:  # fmt: skip
    state = after(
        action, city=city, locations=(location, "casino", "gala"), crews={0: {0: mine}}, **options
    )
    assert {field: getattr(state, field) for field in expected} == expected


def test_every_card_has_a_behaviour_test() -> None:
    covered = {case[0] for case in END_CASES} | {case[0] for case in PROTECT_CASES}
    covered |= {case[0].split()[1] for case in PLAY_CASES}
    covered |= {case[0] for case in LOCATION_CASES}
    assert covered == set(CATALOGUE)
