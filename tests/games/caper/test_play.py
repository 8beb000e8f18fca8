"""Playing cards: costs and their modifiers (section 8), on-play effects, Location coin taxes,
coins (section 7), and the rulings that govern them."""

from __future__ import annotations

from typing import Any

import pytest

from arena.games.api import IllegalActionError
from arena.games.caper.cards import CATALOGUE
from arena.games.caper.rules import apply, legal_actions
from arena.games.caper.scenario import one_location
from arena.games.caper.state import Action, ActionKind, State, parse_action
from arena.games.caper.table import gear_cost

B = "The Banker"


def gear_turn(
    mine: Any = (), theirs: Any = (), hand: tuple[str, ...] = (), **options: Any
) -> State:
    """A Gear round (round 2) with seat 0 to act, holding `hand`."""
    options.setdefault("coins", (5, 5))
    return one_location(
        mine, theirs, round=2, to_move=0, hands=(hand, ("Skeleton Key",)), **options
    )


def play(state: State, text: str) -> State:
    return apply(state, parse_action(text))


def cost(state: State, card: str, seat: int = 0) -> int:
    return gear_cost(state, seat, 0, CATALOGUE[card])


# --- costs and modifiers (section 8) ---------------------------------------------------------


def test_gear_costs_its_printed_cost_without_modifiers() -> None:
    state = gear_turn([[B]])
    assert cost(state, "Blaze Shield Suit") == 3
    assert cost(state, "Skeleton Key") == 0


def test_cleaner_makes_its_owners_red_gear_cheaper_here_only() -> None:
    state = gear_turn([["The Cleaner"]], [[B]])
    assert cost(state, "Blazeblaster", seat=0) == 1
    assert cost(state, "Blazeblaster", seat=1) == 2
    assert cost(state, "Helping Hand", seat=0) == 2


def test_madame_makes_the_opponents_gear_dearer_here() -> None:
    state = gear_turn([[B]], [["The Madame"]])
    assert cost(state, "Helping Hand", seat=0) == 3
    assert cost(state, "Skeleton Key", seat=0) == 1
    assert cost(state, "Helping Hand", seat=1) == 2


def test_secret_shades_makes_the_opponents_light_blue_gear_dearer() -> None:
    state = gear_turn([[B]], [[B, "Secret Shades"]])
    assert cost(state, "Aqua-Respirator", seat=0) == 3
    assert cost(state, "Plans Cachés", seat=0) == 1
    assert cost(state, "Helping Hand", seat=0) == 2
    assert cost(state, "Aqua-Respirator", seat=1) == 2


def test_r6_location_modifiers_apply_to_both_players() -> None:
    state = gear_turn([[B]], [[B]], location="Eiffel Tower")
    assert cost(state, "Helping Hand", seat=0) == cost(state, "Helping Hand", seat=1) == 1
    assert cost(state, "Blazeblaster", seat=0) == 2  # only green Gear is cheaper there


@pytest.mark.parametrize(
    ("location", "card", "expected"),
    [
        ("Colosseum", "Helping Hand", 1),
        ("Colosseum", "Skeleton Key", 0),  # never below 0
        ("Oxford Street", "Blaze Shield Suit", 2),
        ("Trevi Fountain", "Utility Belt", 1),
        ("Trevi Fountain", "Posto Segreto", 2),
        ("Trevi Fountain", "Helping Hand", 2),
    ],
)
def test_location_cost_modifiers(location: str, card: str, expected: int) -> None:
    city = "london" if location == "Oxford Street" else "rome"
    assert cost(gear_turn([[B]], location=location, city=city), card) == expected


def test_cost_modifiers_stack() -> None:
    state = gear_turn([["The Cleaner"]], location="Oxford Street", city="london")
    assert cost(state, "Blazeblaster") == 0  # 2 - 1 (Cleaner) - 1 (Oxford Street)


def test_a_flipped_card_gives_no_cost_modifier() -> None:
    assert cost(gear_turn([[B]], [["~The Madame"]]), "Helping Hand") == 2


def test_unaffordable_gear_can_only_be_discarded() -> None:
    state = gear_turn([[B]], hand=("Blaze Shield Suit",), coins=(2, 0))
    assert legal_actions(state) == [Action(ActionKind.DISCARD, "Blaze Shield Suit")]
    with pytest.raises(
        IllegalActionError, match="Blaze Shield Suit costs 3 at The Gala, you have 2"
    ):
        play(state, "gear Blaze Shield Suit at 0/0")


def test_playing_gear_pays_its_cost_to_the_supply() -> None:
    state = play(
        gear_turn([[B]], hand=("Blaze Shield Suit",), coins=(4, 0)), "gear Blaze Shield Suit at 0/0"
    )
    assert state.coins[0] == 1
    assert state.supply == 10 - 4 + 3
    assert [card.name for card, _ in state.board[0][0][0]] == [B, "Blaze Shield Suit"]


def test_discarding_gear_gains_one_coin() -> None:
    state = play(
        gear_turn([[B]], hand=("Blaze Shield Suit",), coins=(0, 0)), "discard Blaze Shield Suit"
    )
    assert state.coins[0] == 1
    assert [card.name for card in state.discards[0]][-1] == "Blaze Shield Suit"


# --- on-play effects ---------------------------------------------------------------------------


@pytest.mark.parametrize(("card", "gained"), [("Skeleton Key", 2), ("Plasma Cutter", 1)])
def test_gear_that_gains_coins_on_play(card: str, gained: int) -> None:
    state = play(gear_turn([[B]], hand=(card,), coins=(0, 0)), f"gear {card} at 0/0")
    assert state.coins[0] == gained
    assert state.supply == 10 - gained


def test_r9_super_magnet_gains_one_plus_one_per_opponent_thief_here() -> None:
    state = gear_turn([[B]], [["The Colonel"], ["The Mime"]], hand=("Super Magnet",), coins=(0, 0))
    assert play(state, "gear Super Magnet at 0/0").coins[0] == 3


def test_thief_income_is_taken_when_played() -> None:
    state = one_location(round=1, hands=(("The Saint",), ()))
    assert play(state, "thief The Saint at 1").coins == (3, 0)


def test_laundromatic_moves_a_coin_from_the_supply_to_the_discard_area() -> None:
    state = gear_turn([[B]], hand=("Laundromatic",), coins=(1, 0), city="london")
    after = play(state, "gear Laundromatic at 0/0")
    assert after.coins[0] == 0  # paid its cost of 1
    assert after.laundered == (1, 0)
    assert after.supply == state.supply + 1 - 1


@pytest.mark.parametrize(
    ("coins", "expected_coins", "expected_laundered"),
    [((2, 4), (2, 3), (5, 0)), ((3, 3), (3, 3), (4, 0)), ((4, 2), (4, 2), (4, 0))],
)
def test_r11_laundromatic_with_an_empty_supply(
    coins: tuple[int, int], expected_coins: tuple[int, int], expected_laundered: tuple[int, int]
) -> None:
    """R11: the coin comes from the opponent only if you have fewer coins than they do."""
    # At Oxford Street the Laundromatic costs 0, so paying for it does not refill the supply.
    state = gear_turn(
        [[B]],
        hand=("Laundromatic",),
        coins=coins,
        laundered=(4, 0),
        supply=0,
        location="Oxford Street",
        city="london",
    )
    after = play(state, "gear Laundromatic at 0/0")
    assert (after.coins, after.laundered, after.supply) == (expected_coins, expected_laundered, 0)


# --- Location coin taxes and Signal Jammer ------------------------------------------------------


@pytest.mark.parametrize(
    ("location", "card", "taxed"),
    [
        ("Big Ben", "Skeleton Key", True),
        ("Big Ben", "Helping Hand", True),
        ("The British Museum", "Helping Hand", True),
        ("The British Museum", "Skeleton Key", False),
        ("Piccadilly Circus", "Skeleton Key", True),
        ("Piccadilly Circus", "Simple Disguise", False),
        ("Tower of London", "Simple Disguise", True),
        ("Tower of London", "Helping Hand", False),
        ("The Gala", "Skeleton Key", False),
    ],
)
def test_location_makes_the_opponent_return_a_coin_when_gear_is_played(
    location: str, card: str, taxed: bool
) -> None:
    state = gear_turn([[B]], hand=(card,), coins=(2, 3), location=location, city="london")
    after = play(state, f"gear {card} at 0/0")
    assert after.coins[1] == (2 if taxed else 3)


def test_tax_on_an_opponent_with_no_coins_does_nothing() -> None:
    state = gear_turn(
        [[B]], hand=("Skeleton Key",), coins=(0, 0), location="Big Ben", city="london"
    )
    after = play(state, "gear Skeleton Key at 0/0")
    assert after.coins == (2, 0)
    assert after.supply == 8


def _thief_turn(jammer: str, coins: tuple[int, int] = (0, 2)) -> State:
    state = one_location([[B, jammer]], city="london", round=3, to_move=0, coins=coins)
    return state._replace(hands=(state.thief_deck[:1], state.thief_deck[1:2]))


def test_r10_signal_jammer_taxes_its_owners_thief_plays_at_its_location() -> None:
    state = _thief_turn("Signal Jammer")
    thief = state.hands[0][0]
    assert play(state, f"thief {thief.name} at 0").coins[1] == 1
    assert play(state, f"thief {thief.name} at 1").coins[1] == 2  # elsewhere: no tax
    assert play(_thief_turn("~Signal Jammer"), f"thief {thief.name} at 0").coins[1] == 2


# --- coins (section 7) -------------------------------------------------------------------------


def test_gaining_from_an_empty_supply_takes_from_the_opponent_only_while_behind() -> None:
    state = gear_turn([[B]], hand=("Skeleton Key",), coins=(3, 5), supply=0)
    after = play(state, "gear Skeleton Key at 0/0")
    assert after.coins == (4, 4)  # one coin taken; then level, so the second is lost
    assert after.supply == 0


def test_gaining_takes_the_supply_first_then_the_opponent() -> None:
    state = gear_turn([[B]], hand=("Skeleton Key",), coins=(0, 4), supply=1)
    assert play(state, "gear Skeleton Key at 0/0").coins == (2, 3)


def test_the_last_card_of_a_round_is_discarded_without_a_coin() -> None:
    hands = (("Helping Hand", "Smoke Screen"), ("Skeleton Key", "Suction Scalers"))
    state = one_location([[B]], [[B]], round=2, hands=hands)
    assert state.to_move == 1  # R1: Mint starts Gear rounds
    state = play(state, "discard Skeleton Key")  # 1 coin
    state = play(state, "discard Helping Hand")  # 1 coin; each now holds one card
    assert state.coins == (1, 1)  # the last cards were discarded for nothing
    # With one card each there is no swap: each discards the card it still holds.
    assert [c.name for c in state.discards[0]] == ["Helping Hand", "Smoke Screen"]
    assert [c.name for c in state.discards[1]] == ["Skeleton Key", "Suction Scalers"]
    assert state.round == 2  # round 3 (a Thief round) has begun
    assert len(state.hands[0]) == len(state.hands[1]) == 3
