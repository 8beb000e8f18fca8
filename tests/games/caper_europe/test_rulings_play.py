"""Rulings R1-R14 (spec section 14): setup, rounds, playing cards, icons and combos, and the
resolution order of one play. Each test names the ruling it pins down."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from arena.games.caper_common.draft import Kind
from arena.games.caper_europe.cards import City, deck
from arena.games.caper_europe.catalogue import CATALOGUE, GEAR, LOCATIONS, THIEVES
from arena.games.caper_europe.effects import Good
from arena.games.caper_europe.rules import apply, create, legal_actions
from arena.games.caper_europe.scenario import scenario
from arena.games.caper_europe.state import ActionKind, State
from arena.games.caper_europe.table import burn_targets
from tests.games.caper_europe.helpers import after, legal_texts, play, turn


def random_game(seed: int, city: str = "paris") -> list[State]:
    rng = random.Random(seed)
    states = [create({"city": city}, seed)]
    while states[-1].to_move >= 0:
        states.append(apply(states[-1], rng.choice(legal_actions(states[-1]))))
    return states


@pytest.mark.parametrize("city", ["paris", "barcelona", "rome", "london"])
def test_r1_setup_shuffles_locations_thieves_gear_then_goods(city: str) -> None:
    rng = random.Random(77)
    decks = [list(deck(cards, City(city))) for cards in (LOCATIONS, THIEVES, GEAR)]
    for cards in decks:
        rng.shuffle(cards)
    tokens = [good for good in Good for _ in range(4)]
    rng.shuffle(tokens)
    state = create({"city": city}, 77)
    assert state.locations == tuple(decks[0][:3])
    for location in range(3):
        dealt = Counter(tokens[4 * location : 4 * location + 4])
        assert state.goods[location] == tuple(dealt[good] for good in Good)
    assert sorted(state.hands[0], key=id) == sorted(decks[1][:4], key=id)  # R2: top 4 to seat 0
    assert sorted(state.hands[1], key=id) == sorted(decks[1][4:8], key=id)
    assert state.thief_deck == tuple(decks[1][8:])
    assert state.gear_deck == tuple(decks[2])


def test_r1_decks_hold_the_city_cards_only() -> None:
    assert len(deck(LOCATIONS, City.ROME)) == 13
    assert len(deck(THIEVES, City.ROME)) == 18
    assert len(deck(GEAR, City.ROME)) == 36
    assert {card.city for card in deck(GEAR, City.ROME)} == {City.BASE, City.ROME}


def test_r2_dealt_counts_and_every_card_is_dealt() -> None:
    states = random_game(5)
    sizes = {}
    for state in states:
        if state.to_move >= 0 and state.round not in sizes:
            sizes[state.round] = (len(state.hands[0]), len(state.hands[1]))
    assert sizes == {0: (4, 4), 1: (6, 6), 2: (3, 3), 3: (6, 6), 4: (2, 2), 5: (6, 6)}
    final = states[-1]
    assert final.thief_deck == () and final.gear_deck == ()


def test_r2_the_gear_round_first_player_takes_the_top_cards() -> None:
    states = random_game(9)
    last_thief_round = max(i for i, s in enumerate(states) if s.round == 0)
    dealt = states[last_thief_round + 1]
    deck_before = states[last_thief_round].gear_deck
    assert dealt.round == 1
    assert sorted(c.id for c in dealt.hands[1]) == sorted(c.id for c in deck_before[:6])


def test_r3_seat_0_starts_thief_rounds_and_seat_1_gear_rounds() -> None:
    first = {}
    for state in random_game(11):
        if state.to_move >= 0 and state.round not in first:
            first[state.round] = state.to_move
    assert first == {0: 0, 1: 1, 2: 0, 3: 1, 4: 0, 5: 1}


def test_r4_last_cards_are_discarded_without_a_coin_first_player_first() -> None:
    # Both crews sit at the Trevi Fountain at +4: seat 1 (first in a Gear round) discards its
    # pink card first (+4 -> +3), then seat 0 (+3 -> +4). The other order would end on +3.
    state = scenario(
        city="rome",
        locations=("trevi_fountain", "bank", "casino"),
        round=2,
        crews={0: {0: [["mime"]]}, 1: {0: [["dame"]]}},
        markers=(4, 0, 0),
        hands=(("skeleton_key", "utility_belt"), ("skeleton_key", "utility_belt")),
    )
    state = play(play(state, "discard skeleton_key"), "discard skeleton_key")
    assert state.round == 2  # round 3 dealt
    assert state.coins == (1, 1)  # only the two discard actions paid a coin
    assert [[card.id for card in d] for d in state.discards] == [
        ["skeleton_key", "utility_belt"]
    ] * 2
    assert state.markers[0] == 4


def test_r5_a_thief_must_be_placed_and_only_where_there_is_room() -> None:
    state = turn("banker", crews={0: {0: [["mime"], ["dame"], ["tourist"]]}})
    texts = legal_texts(state)
    assert all(text.startswith("thief ") for text in texts)
    assert "thief banker at 1" in texts and not any(text.endswith(" at 0") for text in texts)


def test_r6_discarding_is_always_allowed_and_forced_when_nothing_is_affordable() -> None:
    crews = {0: {0: [["mime"]]}}
    texts = legal_texts(turn("skeleton_key", crews=crews))
    assert "gear skeleton_key at 0/0" in texts and "discard skeleton_key" in texts
    poor = turn(
        "blazeblaster",
        crews=crews,
        coins=(0, 5),
        hands=(("blazeblaster", "briefcase"), ("disguise_kit",)),
    )
    assert [a.kind for a in legal_actions(poor)] == [ActionKind.DISCARD, ActionKind.DISCARD]


def test_r7_gear_costs_its_printed_cost_whatever_is_in_play() -> None:
    # First-edition modifiers (The Cleaner, the Colosseum, Secret Shades) are gone.
    crews = {0: {0: [["cleaner"]]}, 1: {0: [["madame", "secret_shades"]]}}
    state = turn(
        "blazeblaster",
        crews=crews,
        city="rome",
        locations=("colosseum", "bank", "casino"),
        coins=(1, 5),
    )
    assert not any(text.startswith("gear blazeblaster") for text in legal_texts(state))
    state = after(
        "gear blazeblaster at 0/0",
        crews=crews,
        city="rome",
        locations=("colosseum", "bank", "casino"),
        coins=(2, 5),
    )
    assert state.coins[0] == 0


def test_r8_a_thief_with_three_gear_gets_no_bonus() -> None:
    state = after(
        "gear skeleton_key at 0/0", crews={0: {0: [["mime", "sound_dish", "sound_dish"]]}}
    )
    assert state.markers[0] == 0
    assert len(state.crews[0][0]) == 4


def test_r9_icons_resolve_in_printed_order_one_shots_before_own_combos() -> None:
    # The Royal: LAUNDER takes the last supply coin into the hideout, then its darkgreen combo
    # finds the supply empty and the opponent no richer, so that coin is lost.
    state = after(
        "thief royal at 0",
        city="london",
        crews={0: {0: [["mime", "hollow_book"]]}},
        coins=(0, 0),
        hq_coins=(4, 5),
        supply=1,
    )
    assert state.hq_coins == (5, 5)
    assert state.coins == (0, 0) and state.supply == 0


def test_r10_a_grab_is_mandatory_and_the_grabber_chooses_the_type() -> None:
    state = turn("smuggler", goods=((1, 0, 2), (0, 0, 0), (3, 4, 2)))
    at_0 = [text for text in legal_texts(state) if "smuggler at 0" in text]
    assert at_0 == ["thief smuggler at 0 grab diamond", "thief smuggler at 0 grab antique"]
    assert "thief smuggler at 1" in legal_texts(state)  # nothing there: nothing to choose
    state = play(state, "thief smuggler at 0 grab antique")
    assert state.goods[0] == (1, 0, 1) and state.hq_goods[0] == (0, 0, 1)


def test_r10_a_typed_grab_with_none_of_that_type_there_takes_nothing() -> None:
    state = after(
        "gear telescopic_hand at 0/0",
        crews={0: {0: [["mime"]]}},
        goods=((0, 2, 2), (2, 1, 1), (2, 1, 1)),
    )
    assert state.goods[0] == (0, 2, 2) and state.hq_goods[0] == (0, 0, 0)


def test_r11_a_card_counts_itself() -> None:
    assert (
        after("gear signal_jammer at 0/0", city="london", crews={0: {0: [["mime"]]}}).markers[0]
        == 1
    )
    assert (
        after("gear false_documents at 0/0", crews={0: {0: [["mime", "skeleton_key"]]}}).markers[0]
        == 1
    )


def test_r12_a_combo_fires_count_times_on_play_then_for_each_arrival() -> None:
    crews = {0: {0: [["mime", "skeleton_key", "plasma_cutter"]]}}
    assert after("thief banker at 0", crews=crews).markers[0] == 2
    crews = {0: {0: [["banker"], ["mime"]]}}
    assert after("gear skeleton_key at 0/1", crews=crews).markers[0] == 1


def test_r12_a_set_combo_fires_once_per_newly_completed_set() -> None:
    crews = {0: {0: [["barber"], ["mime", "sound_dish"]]}}  # 2 Thieves, 1 Gear: no set yet
    assert after("gear skeleton_key at 0/0", crews=crews).markers[0] == 1  # 2 Gear: one set
    crews = {0: {0: [["barber"], ["mime", "sound_dish", "sound_dish"]]}}
    assert after("gear skeleton_key at 0/0", crews=crews).markers[0] == 0  # 3 Gear: still one


def test_r12_discard_and_hideout_coin_arrivals_fire_their_combos_anywhere() -> None:
    crews = {0: {1: [["driver"]]}}
    assert after("discard utility_belt", city="rome", crews=crews).markers == (0, 1, 0)
    crews = {0: {0: [["mime"]], 2: [["boxer"]]}}
    state = after("gear laundromatic at 0/0", city="london", crews=crews)
    assert state.hq_coins[0] == 1 and state.markers == (0, 0, 1)


def test_r12_decreases_never_undo_and_a_burned_combo_stops() -> None:
    crews = {0: {0: [["mime"]]}, 1: {0: [["banker", "skeleton_key"], ["dame", "wiretap"]]}}
    state = after("gear blazeblaster at 0/0 burn 0", crews=crews, markers=(-2, 0, 0))
    assert state.markers[0] == -2  # the Banker's earlier move for the key stays
    state = after("gear blazeblaster at 0/0 burn 1", crews=crews, markers=(-2, 0, 0))
    thieves = (CATALOGUE["cleaner"], CATALOGUE["tourist"])
    later = play(state._replace(round=2, to_move=1, hands=(thieves, thieves)), "thief tourist at 0")
    assert later.markers[0] == -2  # the burned Wiretap no longer moves for a new Thief


def test_r13_location_ongoing_effects_apply_to_each_player_separately() -> None:
    crews = {1: {0: [["chef"]]}}
    state = scenario(
        locations=("eiffel_tower", "bank", "casino"),
        crews=crews,
        round=2,
        coins=(5, 5),
        hands=(("skeleton_key", "skeleton_key"), ("plans_caches", "skeleton_key", "skeleton_key")),
    )
    assert play(state, "gear plans_caches at 0/0").markers[0] == -2  # the Chef and the Tower


def test_r13_discard_and_coin_scoped_location_effects_need_a_thief_there() -> None:
    rome = {"city": "rome", "locations": ("trevi_fountain", "bank", "casino")}
    assert after("discard utility_belt", crews={0: {1: [["mime"]]}}, **rome).markers[0] == 0
    assert after("discard utility_belt", crews={0: {0: [["mime"]]}}, **rome).markers[0] == 1
    london = {"city": "london", "locations": ("piccadilly_circus", "bank", "casino")}
    assert after("gear laundromatic at 1/0", crews={0: {1: [["mime"]]}}, **london).markers[0] == 0
    assert (
        after(
            "gear laundromatic at 1/0", crews={0: {0: [["dame"]], 1: [["mime"]]}}, **london
        ).markers[0]
        == 1
    )


def test_r13_location_effects_have_no_on_play_moment() -> None:
    state = after(
        "thief nun at 0",
        city="rome",
        locations=("trevi_fountain", "bank", "casino"),
        discards=(("utility_belt", "utility_belt"), ()),
    )
    assert state.markers[0] == 0


def test_r13_a_location_protects_both_sides() -> None:
    crews = {0: {0: [["mime", "skeleton_key"]]}, 1: {0: [["dame", "plasma_cutter"]]}}
    state = turn("blazeblaster", crews=crews, locations=("bank", "museum", "casino"))
    assert "gear blazeblaster at 0/0" in legal_texts(state)  # no target: the burn lapses
    assert burn_targets(state, 0, 0) == () and burn_targets(state, 1, 0) == ()


def test_r14_arrival_events_wait_until_the_players_own_combos_have_fired() -> None:
    # Seat 0's Illusionist burns seat 1's Utility Belt at +3: the undo moves to +4, seat 0's
    # Wiretap then lapses at +4, and only then does seat 1's Driver pull for the pink discard.
    crews = {0: {0: [["mime", "wiretap"]]}, 1: {0: [["driver", "utility_belt"]]}}
    state = after("thief illusionist at 0 burn 0", city="rome", crews=crews, markers=(3, 0, 0))
    assert state.markers[0] == 3


def test_r14_the_events_of_its_own_one_shots_do_not_fire_a_card_twice() -> None:
    # A Laundromatic at Piccadilly Circus: its launder is one HQ-coin arrival, one step.
    london = {"city": "london", "locations": ("piccadilly_circus", "bank", "casino")}
    state = after(
        "gear laundromatic at 0/0", crews={0: {0: [["boxer"]]}}, hq_coins=(2, 0), **london
    )
    assert state.markers[0] == 2  # the Boxer's growth (1) and the Location's (1), no more


def test_r14_thief_income_comes_before_its_one_shots() -> None:
    state = after("thief pickpocket at 0 grab diamond", city="barcelona", coins=(0, 0))
    assert state.coins == (2, 0) and state.hq_goods[0] == (1, 0, 0)
    assert state.crews[0][0][0][0].kind is Kind.THIEF
