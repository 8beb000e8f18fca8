"""The rulebook's worked examples (spec section 13): the turn example E1, the 55-point scoring
example E2 with the facts it forces on the catalogue, and the smaller facts F1-F12."""

from __future__ import annotations

import pytest

from arena.games.caper_common.coins import gain
from arena.games.caper_europe.catalogue import CATALOGUE, GEAR
from arena.games.caper_europe.effects import Colour
from arena.games.caper_europe.scenario import scenario
from arena.games.caper_europe.scoring import goods_points, score
from arena.games.caper_europe.state import State
from arena.games.caper_europe.table import burn_targets, thieves_with_room, tops
from tests.games.caper_europe.helpers import after, card_points, legal_texts, play

# --- E1: the turn example (p.13) -----------------------------------------------------------


def e1_fixture() -> State:
    """Seat 1: Banker bare, Colonel with a Plasma Cutter, marker at -1, 3 coins. Seat 0: the
    Artist with a Telescopic Hand under a Briefcase, 3 coins; supply 4. Round 4, seat 1 first."""
    return scenario(
        round=4,
        locations=("museum", "bank", "casino"),
        crews={
            0: {0: [["artist", "telescopic_hand", "briefcase"]]},
            1: {0: [["banker"], ["colonel", "plasma_cutter"]]},
        },
        markers=(-1, 0, 0),
        coins=(3, 3),
        hands=(
            ("blazeblaster", "skeleton_key", "sound_dish"),
            ("disguise_kit", "skeleton_key", "sound_dish"),
        ),
    )


def test_e1_setup_has_a_supply_of_four() -> None:
    assert e1_fixture().supply == 4


def test_e1_step1_disguise_kit_moves_once_and_fires_the_colonel_not_the_banker() -> None:
    state = play(e1_fixture(), "gear disguise_kit at 0/0")
    assert state.markers[0] == -3  # its own MOVE 1, then the Colonel's PER violet (R14)
    assert state.to_move == 0


def test_e1_step2_blazeblaster_costs_two_and_fills_the_artist() -> None:
    state = play(e1_fixture(), "gear disguise_kit at 0/0")
    burns = [text for text in legal_texts(state) if text.startswith("gear blazeblaster")]
    assert burns == ["gear blazeblaster at 0/0 burn 0", "gear blazeblaster at 0/0 burn 1"]
    state = play(state, "gear blazeblaster at 0/0 burn 1")
    assert state.coins[0] == 1  # 3 - 2
    assert thieves_with_room(state.crews[0][0]) == []  # 3 Gear: no longer a Gear target


def test_e1_step3_burning_the_plasma_cutter_returns_all_three_coins_and_keeps_the_marker() -> None:
    state = play(e1_fixture(), "gear disguise_kit at 0/0")
    # Step 3's targets are exactly the two topmost Gear: the Disguise Kit and the Plasma Cutter.
    assert {tops(state.crews[1][0])[t].id for t in burn_targets(state, 0, 0)} == {
        "disguise_kit",
        "plasma_cutter",
    }
    state = play(state, "gear blazeblaster at 0/0 burn 1")
    assert [card.id for card in state.discards[1]] == ["plasma_cutter"]
    assert state.coins == (1, 0)  # undo COIN 4 with only 3 in hand: all 3 go back
    assert state.supply == 9
    assert state.markers[0] == -3  # the Banker's combo move for the Plasma Cutter stays (R19)


def test_e1_step4_the_covered_briefcase_cannot_be_burned() -> None:
    state = play(play(e1_fixture(), "gear disguise_kit at 0/0"), "gear blazeblaster at 0/0 burn 1")
    assert burn_targets(state, 1, 0) == (0,)
    assert tops(state.crews[0][0])[0].id == "blazeblaster"  # the only burnable card there


# --- E2: the scoring example (p.15-16), 55 points ----------------------------------------------

E2_CREWS = {
    0: [["starlet", "plasma_cutter", "secret_shades", "sound_dish"]],
    1: [
        ["dame", "disguise_kit", "disguise_kit", "incognito_tuxedo"],
        ["gentleman", "telescopic_hand", "skeleton_key", "plans_caches"],
        ["banker", "plans_caches"],
    ],
    2: [
        ["bon_vivant", "suction_scalers", "grappling_gun"],
        ["barber", "briefcase", "blazeblaster"],
    ],
}


def e2_fixture(louvre_marker: int = 1, crews: dict[int, list[list[str]]] | None = None) -> State:
    return scenario(
        round=7,
        locations=("yacht", "moulin_rouge", "louvre"),
        crews={0: crews or E2_CREWS},
        markers=(0, 4, louvre_marker),
        hq_goods=((1, 2, 2), (0, 0, 0)),  # diamond, painting x2, antique x2
    )


@pytest.mark.parametrize("louvre_marker", [1, 2])
def test_e2_scores_fifty_five(louvre_marker: int) -> None:
    sheet = score(e2_fixture(louvre_marker))
    assert sheet.totals[0] == 55
    assert sheet.location_fields[0] == (0, 10, 7)
    assert sheet.card_fields[0] == (3, 14, 7)
    assert sheet.breakdown[0]["stolen_goods"] == 14
    assert sheet.breakdown[0]["stars"] == 2


def test_e2_card_by_card() -> None:
    state = e2_fixture()
    points = {
        card: card_points(state, 0, loc, card)
        for loc, stacks in E2_CREWS.items()
        for stack in stacks
        for card in stack
    }
    assert points["sound_dish"] == 1 and points["starlet"] == 2 and points["plasma_cutter"] == 0
    assert points["dame"] == 6 and points["gentleman"] == 4 and points["plans_caches"] == 2
    assert points["banker"] == 0
    assert points["bon_vivant"] == 4 and points["briefcase"] == 3 and points["blazeblaster"] == 0


def test_e2_yacht_in_the_middle_is_decided_by_nobody() -> None:
    assert score(e2_fixture()).winners == (None, 0, 0)


def test_e2_fact1_the_blue_card_at_the_yacht_is_no_plans_caches() -> None:
    assert card_points(e2_fixture(), 0, 0, "secret_shades") == 0
    crews = {**E2_CREWS, 0: [["starlet", "plasma_cutter", "plans_caches", "sound_dish"]]}
    assert score(e2_fixture(crews=crews)).card_fields[0][0] == 4  # a Plans Cachés would add 1


def test_e2_fact2_two_blue_cards_at_the_moulin_rouge_and_a_third_thief_without_end_effect() -> None:
    blue = [
        card for stack in E2_CREWS[1] for card in stack if CATALOGUE[card].colour is Colour.BLUE
    ]
    assert len(blue) == 2
    assert CATALOGUE["banker"].end_effects == ()


def test_e2_fact3_the_only_red_gear_is_the_blazeblaster_and_it_has_no_points() -> None:
    red = [card for card in GEAR if card.colour is Colour.RED]
    assert [(card.id, card.copies) for card in red] == [("blazeblaster", 3)]
    assert CATALOGUE["blazeblaster"].end_effects == ()


def test_e2_fact4_the_moulin_rouge_marker_is_on_an_end_space_the_louvre_on_a_plain_one() -> None:
    sheet = score(e2_fixture(2))
    assert sheet.location_fields[0][1] == 5 + 3 + 2  # R22: 2 stars at +4
    assert sheet.location_fields[0][2] == 3 + 4  # no stars at +1 or +2


def test_e2_fact5_a_smoke_screen_among_the_violets_would_change_the_total() -> None:
    dame = ["dame", "smoke_screen", "disguise_kit", "incognito_tuxedo"]
    crews = {**E2_CREWS, 1: [dame, *E2_CREWS[1][1:]]}
    assert score(e2_fixture(crews=crews)).totals[0] == 56


# --- E3: smaller rulebook facts -------------------------------------------------------------


def test_f1_tuxedo_moves_two_and_smoke_screen_one_plus_a_point() -> None:
    crews = {0: {0: [["mime"]]}}
    assert after("gear incognito_tuxedo at 0/0", crews=crews).markers[0] == 2
    state = after("gear smoke_screen at 0/0", crews=crews)
    assert state.markers[0] == 1
    assert card_points(state, 0, 0, "smoke_screen") == 1


def test_f2_a_move_from_the_owners_end_space_lapses() -> None:
    crews = {0: {0: [["mime"]]}}
    assert after("gear disguise_kit at 0/0", crews=crews, markers=(4, 0, 0)).markers[0] == 4
    assert after("gear incognito_tuxedo at 0/0", crews=crews, markers=(3, 0, 0)).markers[0] == 4


def test_f3_the_conductor_moves_for_each_green_already_there_and_each_later_one() -> None:
    crews = {0: {0: [["mime", "telescopic_hand", "suction_scalers"]]}}
    assert after("thief conductor at 0", crews=crews).markers[0] == 2
    crews = {0: {0: [["conductor"], ["mime", "telescopic_hand", "suction_scalers"]]}}
    assert after("gear grappling_gun at 0/0", crews=crews).markers[0] == 1


def test_f4_bon_vivant_with_two_green_gear_is_one_set() -> None:
    state = scenario(crews={0: {0: [["bon_vivant", "telescopic_hand", "suction_scalers"]]}})
    assert card_points(state, 0, 0, "bon_vivant") == 2


def test_f5_two_points_per_painting_with_three_paintings() -> None:
    state = scenario(
        locations=("louvre", "bank", "casino"),
        crews={0: {0: [["mime"]]}},
        markers=(1, 0, 0),
        hq_goods=((0, 3, 0), (0, 0, 0)),
    )
    assert score(state).location_fields[0][0] == 3 + 6


@pytest.mark.parametrize(("marker", "expected"), [(1, 8), (2, 8), (3, 9), (4, 10)])
def test_f6_five_plus_one_per_own_thief_with_three_thieves(marker: int, expected: int) -> None:
    crews = {0: {0: [["mime"], ["banker"], ["dame"]]}}
    state = scenario(
        locations=("moulin_rouge", "bank", "casino"), crews=crews, markers=(marker, 0, 0)
    )
    assert score(state).location_fields[0][0] == expected


def test_f7_empty_supply_takes_from_a_richer_opponent_then_the_rest_is_lost() -> None:
    assert gain((4, 6), 0, 0, 2) == ((5, 5), 0)
    state = after("gear skeleton_key at 0/0", crews={0: {0: [["mime"]]}}, coins=(4, 6))
    assert (state.coins, state.supply) == ((5, 5), 0)


def test_f8_barcelona_eyes_see_only_the_topmost_gear() -> None:
    crews = {
        0: {0: [["surrealist", "disguise_kit", "telescopic_hand"], ["anarchist", "hypno_organ"]]}
    }
    state = scenario(
        city="barcelona",
        locations=("la_rambla", "bank", "casino"),
        crews=crews,
        hq_goods=((1, 1, 0), (0, 0, 0)),
    )
    assert card_points(state, 0, 0, "surrealist") == 2
    assert card_points(state, 0, 0, "hypno_organ") == 3
    assert card_points(state, 0, 0, "anarchist") == 0  # the violet Disguise Kit is covered


def test_f9_plans_caches_on_another_thief_fires_the_chef_and_the_eiffel_tower() -> None:
    crews = {0: {0: [["chef"], ["madame"]]}}
    state = after(
        "gear plans_caches at 0/1", crews=crews, locations=("eiffel_tower", "bank", "casino")
    )
    assert state.markers[0] == 2


def test_f10_a_covered_gear_is_never_a_burn_target() -> None:
    crews = {
        0: {0: [["mime", "disguise_kit"]]},
        1: {0: [["banker", "telescopic_hand", "skeleton_key"]]},
    }
    state = scenario(crews=crews)
    assert burn_targets(state, 0, 0) == (0,)
    assert tops(state.crews[1][0])[0].id == "skeleton_key"


def test_f11_goods_score_two_five_nine() -> None:
    assert goods_points((1, 0, 0)) == 2
    assert goods_points((0, 1, 1)) == 5
    assert goods_points((1, 1, 1)) == 9


def test_f12_a_marker_in_the_middle_scores_nobody_the_location_field() -> None:
    crews = {0: {0: [["mime"], ["banker"]]}, 1: {0: [["dame"]]}}
    sheet = score(scenario(crews=crews, markers=(0, 0, 0)))
    assert sheet.winners[0] is None
    assert sheet.location_fields == ((0, 0, 0), (0, 0, 0))
