"""Rulings R15-R32 (spec section 14): sets, protection, burning and its undo, coins, the caper
track, scoring and the catalogue rulings. Each test names the ruling it pins down."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.games.caper_common.coins import gain
from arena.games.caper_europe.cards import CITY_COLOURS, City
from arena.games.caper_europe.catalogue import CATALOGUE, THIEVES
from arena.games.caper_europe.effects import Colour, Condition, Scope, parse_effects
from arena.games.caper_europe.resolve import Work
from arena.games.caper_europe.rules import apply, create, legal_actions
from arena.games.caper_europe.scenario import scenario
from arena.games.caper_europe.scoring import STARS, score, winner
from arena.games.caper_europe.table import burn_targets, count_cards
from tests.games.caper_europe.helpers import after, card_points, legal_texts, play, turn

V, G, Y = Colour.VIOLET, Colour.GREEN, Colour.YELLOW


def crew_of(*ids: str) -> list:  # type: ignore[type-arg]
    return [CATALOGUE[card] for card in ids]


def pattern(text: str) -> Condition:
    per = parse_effects(f"PER {text}: PTS 1")[0].per
    assert per is not None
    return per


@pytest.mark.parametrize(
    ("condition", "cards", "sets"),
    [
        (
            "set(violet + any gear)",
            ("dame", "disguise_kit", "disguise_kit", "incognito_tuxedo", "skeleton_key"),
            2,
        ),
        (
            "set(violet + green + yellow)",
            ("gentleman", "disguise_kit", "telescopic_hand", "skeleton_key", "skeleton_key"),
            1,
        ),
        (
            "set(thief + 2 any gear)",
            ("barber", "mime", "skeleton_key", "sound_dish", "disguise_kit"),
            1,
        ),
        (
            "set(3 any gear)",
            (
                "tourist",
                "skeleton_key",
                "sound_dish",
                "disguise_kit",
                "telescopic_hand",
                "briefcase",
                "blazeblaster",
            ),
            2,
        ),
        ("set(2 pink)", ("soprano", "utility_belt", "utility_belt", "posto_segreto"), 1),
        ("set(yellow + any gear)", ("starlet", "plasma_cutter", "secret_shades", "sound_dish"), 1),
        (
            "set(green + any gear)",
            ("bon_vivant", "suction_scalers", "grappling_gun", "briefcase", "blazeblaster"),
            2,
        ),
    ],
)
def test_r15_disjoint_sets_by_the_formula(
    condition: str, cards: tuple[str, ...], sets: int
) -> None:
    assert count_cards(pattern(condition), crew_of(*cards)) == sets


def _brute_force_sets(colours: list[Colour], any_gear: int, cards: list[Colour]) -> int:
    """Most disjoint sets by trying every assignment: the formula must match it."""
    best = 0
    size = len(colours) + any_gear
    for chosen in itertools.combinations(range(len(cards)), size):
        picked = [cards[i] for i in chosen]
        needed = list(colours)
        for colour in picked:
            if colour in needed:
                needed.remove(colour)
        if not needed:
            rest = [c for i, c in enumerate(cards) if i not in chosen]
            best = max(best, 1 + _brute_force_sets(colours, any_gear, rest))
    return best


@given(st.lists(st.sampled_from([V, G, Y]), max_size=7))
def test_r15_the_formula_is_the_true_maximum(gear: list[Colour]) -> None:
    ids = {V: "disguise_kit", G: "telescopic_hand", Y: "skeleton_key"}
    cards = crew_of(*(ids[c] for c in gear))
    assert count_cards(pattern("set(violet + any gear)"), cards) == _brute_force_sets([V], 1, gear)
    assert count_cards(pattern("set(violet + green)"), cards) == _brute_force_sets([V, G], 0, gear)


def test_r16_crew_protection_covers_the_owners_cards_of_that_colour_in_that_crew() -> None:
    crews = {
        1: {
            0: [["nun"], ["dame", "telescopic_hand"], ["banker", "skeleton_key"]],
            1: [["mime", "suction_scalers"]],
        },
        0: {0: [["tourist", "grappling_gun"]]},
    }
    state = scenario(crews=crews)
    assert burn_targets(state, 0, 0) == (2,)  # the green Hand is the Nun's; the Key is not
    assert burn_targets(state, 0, 1) == (0,)  # another Location: no protection
    assert burn_targets(state, 1, 0) == (0,)  # the Nun does not protect seat 0's green


def test_r16_a_protecting_gear_protects_itself_and_others_while_covered() -> None:
    crews = {
        1: {
            0: [
                ["dame", "blaze_shield_suit"],
                ["banker", "blaze_shield_suit", "disguise_kit"],
                ["mime", "stealth_suit"],
            ]
        }
    }
    state = scenario(crews=crews)
    assert burn_targets(state, 0, 0) == (1,)  # only the violet Disguise Kit


def test_r17_a_burn_is_mandatory_when_a_target_exists() -> None:
    crews = {0: {0: [["mime"]]}, 1: {0: [["dame", "disguise_kit"]]}}
    texts = [t for t in legal_texts(turn("blazeblaster", crews=crews)) if "blazeblaster at 0" in t]
    assert texts == ["gear blazeblaster at 0/0 burn 0"]
    with pytest.raises(ValueError, match="mandatory"):
        after("gear blazeblaster at 0/0", crews=crews)


def test_r17_no_target_no_burn() -> None:
    state = after("thief illusionist at 0", crews={1: {0: [["dame"]]}})
    assert [card.id for card, _ in state.crews[1][0]] == ["dame"]
    assert state.discards[1] == ()


def test_r18_undo_uses_the_printed_icons_even_when_they_lapsed() -> None:
    crews = {0: {0: [["mime"]]}, 1: {0: [["dame", "disguise_kit"]]}}
    assert (
        after("gear blazeblaster at 0/0 burn 0", crews=crews, markers=(-4, 0, 0)).markers[0] == -3
    )
    crews = {0: {0: [["mime"]]}, 1: {0: [["dame", "incognito_tuxedo"]]}}
    assert after("gear blazeblaster at 0/0 burn 0", crews=crews, markers=(3, 0, 0)).markers[0] == 4


def test_r18_a_grab_undone_returns_a_token_here_even_if_grabbed_elsewhere() -> None:
    crews = {0: {0: [["mime"]]}, 1: {0: [["dame", "telescopic_hand"]]}}
    goods = ((0, 3, 2), (2, 0, 1), (1, 1, 1))
    state = after(
        "gear blazeblaster at 0/0 burn 0", crews=crews, goods=goods, hq_goods=((0, 0, 0), (1, 0, 0))
    )
    assert state.hq_goods[1] == (0, 0, 0)
    assert state.goods[0] == (1, 3, 2)  # six tokens beside one Location: no slot limit


def test_r18_a_launder_undone_returns_a_hideout_coin_to_the_supply() -> None:
    crews = {0: {0: [["mime"]]}, 1: {0: [["dame", "laundromatic"]]}}
    state = after(
        "gear blazeblaster at 0/0 burn 0", city="london", crews=crews, coins=(3, 3), hq_coins=(0, 2)
    )
    assert state.hq_coins == (0, 1) and state.supply == 10 - 1 - 3 - 1


def test_r18_the_victim_chooses_which_token_a_wild_grab_gives_back() -> None:
    crews = {0: {0: [["mime"]]}, 1: {0: [["dame", "stealth_suit"]]}}
    state = after("gear blazeblaster at 0/0 burn 0", crews=crews, hq_goods=((0, 0, 0), (1, 0, 2)))
    assert state.to_move == 1 and state.returning == 0
    assert legal_texts(state) == ["return diamond", "return antique"]
    state = play(state, "return antique")
    assert state.hq_goods[1] == (1, 0, 1) and state.returning == -1
    assert state.to_move == 1  # round 2, seat 1 starts the next turn after the swap
    single = after("gear blazeblaster at 0/0 burn 0", crews=crews, hq_goods=((0, 0, 0), (0, 2, 0)))
    assert single.hq_goods[1] == (0, 1, 0) and single.returning == -1  # no choice to make


def test_r19_combos_are_never_undone() -> None:
    crews = {0: {0: [["mime"]]}, 1: {0: [["dame", "false_documents"], ["banker", "skeleton_key"]]}}
    state = after("gear blazeblaster at 0/0 burn 0", crews=crews, markers=(-3, 0, 0))
    assert state.markers[0] == -3  # the False Documents' own combo moves stay


def test_r20_coin_comparisons_count_hand_coins_only() -> None:
    state = after(
        "gear skeleton_key at 0/0",
        crews={0: {0: [["mime"]]}},
        coins=(2, 3),
        hq_coins=(5, 0),
        supply=0,
    )
    assert state.coins == (3, 2)  # 2 < 3 in hand: one coin taken; then 3 > 2: the second is lost
    assert gain((2, 3), 0, 0, 2) == ((3, 2), 0)


@pytest.mark.parametrize(
    ("coins", "supply", "expected_coins", "expected_hq"),
    [((1, 1), 1, (1, 1), (1, 0)), ((1, 3), 0, (1, 2), (1, 0)), ((3, 1), 0, (3, 1), (0, 0))],
)
def test_r21_launder_from_supply_else_a_richer_opponent_else_nothing(
    coins: tuple[int, int],
    supply: int,
    expected_coins: tuple[int, int],
    expected_hq: tuple[int, int],
) -> None:
    # The Royal launders on placement, so no cost is paid into the supply first.
    state = after("thief royal at 0", city="london", coins=coins, supply=supply)
    assert state.coins == expected_coins and state.hq_coins == expected_hq


def test_r22_nine_spaces_with_one_and_two_stars() -> None:
    assert [winner(m) for m in range(-4, 5)] == [1, 1, 1, 1, None, 0, 0, 0, 0]
    assert [STARS.get(abs(m), 0) for m in range(-4, 5)] == [2, 1, 0, 0, 0, 0, 0, 1, 2]
    state = after("gear incognito_tuxedo at 0/0", crews={0: {0: [["mime"]]}}, markers=(-4, 0, 0))
    assert state.markers[0] == -2


def test_r23_only_a_player_with_a_thief_there_moves_a_marker_toward_themselves() -> None:
    work = Work(scenario(crews={0: {0: [["mime"]]}}))
    with pytest.raises(AssertionError, match="R23"):
        work.move(1, 0, 1)
    for seed in range(20):
        state = create({"city": "rome"}, seed)
        rng = random.Random(seed)
        while state.to_move >= 0:
            state = apply(state, rng.choice(legal_actions(state)))
        for location, decided_by in enumerate(score(state).winners):
            assert decided_by is None or state.crews[decided_by][location]


def test_r24_end_effects_count_the_winners_crew_hideout_or_the_named_scope() -> None:
    crews = {0: {0: [["mime", "skeleton_key"]]}, 1: {0: [["dame", "plasma_cutter", "sound_dish"]]}}
    rome = scenario(
        city="rome", locations=("pantheon", "bank", "casino"), crews=crews, markers=(1, 0, 0)
    )
    assert score(rome).location_fields[0][0] == 6 + 2  # yellow@opp: seat 1's two yellow
    barcelona = scenario(
        city="barcelona",
        locations=("la_boqueria", "bank", "casino"),
        crews=crews,
        markers=(1, 0, 0),
    )
    assert score(barcelona).location_fields[0][0] == 4 + 3  # yellow@both
    louvre = scenario(
        locations=("louvre", "bank", "casino"),
        crews=crews,
        markers=(-1, 0, 0),
        hq_goods=((0, 3, 0), (0, 1, 0)),
    )
    assert score(louvre).location_fields[1][0] == 3 + 2  # the winner's hideout
    auction = scenario(crews={1: {0: [["auctioneer"]]}}, hq_goods=((0, 0, 3), (0, 0, 1)))
    assert card_points(auction, 1, 0, "auctioneer") == 2  # the owner's hideout


def test_r25_an_eye_sees_topmost_gear_and_one_card_opens_several_eyes() -> None:
    both_open = scenario(city="barcelona", crews={0: {0: [["mime", "hypno_organ", "hypno_organ"]]}})
    assert card_points(both_open, 0, 0, "hypno_organ") == 3  # the covered one too
    covered = scenario(city="barcelona", crews={0: {0: [["mime", "hypno_organ", "skeleton_key"]]}})
    assert card_points(covered, 0, 0, "hypno_organ") == 0
    crews = {0: {0: [["mime", "disguise_kit"]]}}
    casa = scenario(
        city="barcelona",
        locations=("casa_batllo", "bank", "casino"),
        crews=crews,
        markers=(1, 0, 0),
    )
    assert score(casa).location_fields[0][0] == 5 + 3


@pytest.mark.parametrize(("marker", "points"), [(1, 2), (0, 0), (-1, 0)])
def test_r26_the_win_bonus_scores_only_for_the_player_who_decided_it(
    marker: int, points: int
) -> None:
    state = scenario(
        city="rome",
        crews={0: {0: [["mime", "utility_belt"]]}, 1: {0: [["dame"]]}},
        markers=(marker, 0, 0),
    )
    assert card_points(state, 0, 0, "utility_belt") == points


def test_r27_ties_go_to_hand_coins_then_goods_then_a_draw() -> None:
    level = {"round": 7, "crews": {1: {0: [["mime", "smoke_screen", "sound_dish"]]}}}
    result = score_result(hq_goods=((1, 1, 0), (0, 0, 1)), coins=(0, 0), **level)
    assert (result.scores, result.winner, result.tiebreak) == ((5, 5), 0, "goods")
    result = score_result(hq_goods=((1, 1, 0), (0, 0, 1)), coins=(1, 2), hq_coins=(3, 0), **level)
    assert (result.winner, result.tiebreak) == (1, "coins")  # hideout coins do not count
    result = score_result(round=7, coins=(2, 2))
    assert (result.scores, result.winner, result.tiebreak) == ((0, 0), None, "draw")


def score_result(**options: object):  # type: ignore[no-untyped-def]
    from arena.games.caper_europe import CAPER_EUROPE

    return CAPER_EUROPE.result(scenario(**options))  # type: ignore[arg-type]


def test_r28_the_both_sides_icon_is_barcelonas_but_works_in_any_city() -> None:
    both = {
        card.id
        for card in CATALOGUE.values()
        if any(i.per and i.per.scope is Scope.BOTH for i in card.icons)
    }
    assert both == {"anarchist", "mosaic_mask", "sagrada_familia", "la_boqueria"}
    assert {CATALOGUE[card].city for card in both} == {City.BARCELONA}
    crews = {0: {0: [["mime", "skeleton_key"]]}, 1: {0: [["dame", "plasma_cutter"]]}}
    paris = scenario(
        city="paris", locations=("la_boqueria", "bank", "casino"), crews=crews, markers=(1, 0, 0)
    )
    assert score(paris).location_fields[0][0] == 4 + 2


def test_r29_city_colours_and_green_is_not_darkgreen() -> None:
    assert CITY_COLOURS == {
        City.PARIS: Colour.BLUE,
        City.BARCELONA: Colour.ORANGE,
        City.ROME: Colour.PINK,
        City.LONDON: Colour.DARKGREEN,
    }
    london = {"city": "london", "locations": ("british_museum", "bank", "casino")}
    assert after("gear hollow_book at 0/0", crews={0: {0: [["mime"]]}}, **london).coins[0] == 3 - 1
    assert (
        after("gear telescopic_hand at 0/0", crews={0: {0: [["mime"]]}}, **london).coins[0]
        == 3 - 1 + 1
    )
    state = scenario(city="london", crews={0: {0: [["mime", "hollow_book", "telescopic_hand"]]}})
    assert count_cards(pattern("green"), [c for c, _ in state.crews[0][0]]) == 1


def test_r30_thief_incomes() -> None:
    base = [card for card in THIEVES if card.city is City.BASE]
    assert sum(card.income for card in base) == 17
    assert [CATALOGUE[c].income for c in ("bon_vivant", "auctioneer", "cleaner")] == [1, 1, 1]


def test_r31_described_cards_carry_exactly_the_described_icons() -> None:
    assert CATALOGUE["sound_dish"].text == "PTS 1"
    assert (
        CATALOGUE["briefcase"].text == "PER green: PTS 1" and CATALOGUE["briefcase"].protects == ()
    )
    assert CATALOGUE["blazeblaster"].text == "BURN"
    assert CATALOGUE["plasma_cutter"].text == "COIN 4"


def test_r32_a_caption_number_is_the_cost_and_the_sound_dish_costs_nothing() -> None:
    costs = {
        card: CATALOGUE[card].cost
        for card in (
            "briefcase",
            "blazeblaster",
            "smoke_screen",
            "incognito_tuxedo",
            "disguise_kit",
            "secret_shades",
            "sound_dish",
        )
    }
    assert costs == {
        "briefcase": 3,
        "blazeblaster": 2,
        "smoke_screen": 1,
        "incognito_tuxedo": 1,
        "disguise_kit": 0,
        "secret_shades": 0,
        "sound_dish": 0,
    }
    assert "cost" in CATALOGUE["disguise_kit"].captions and CATALOGUE["sound_dish"].captions == ()
