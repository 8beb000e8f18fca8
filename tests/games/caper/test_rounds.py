"""The round structure (section 4), hand swaps, and the rulings R1, R2, R3 and R7."""

from __future__ import annotations

import random

import pytest

from arena.games.caper import CAPER
from arena.games.caper.cards import Kind
from arena.games.caper.rules import apply, create, legal_actions
from arena.games.caper.scenario import scenario
from arena.games.caper.state import Action, ActionKind, State, parse_action

B = "The Banker"


def random_game(seed: int, city: str = "paris") -> list[State]:
    rng = random.Random(seed)
    states = [create({"city": city}, seed)]
    while states[-1].to_move >= 0:
        states.append(apply(states[-1], rng.choice(legal_actions(states[-1]))))
    return states


def test_setup_reveals_three_locations_of_the_city_and_deals_round_one() -> None:
    state = create({"city": "rome"}, 7)
    assert all(loc.city.value in ("base", "rome") for loc in state.locations)
    assert len(set(state.locations)) == 3
    assert [len(h) for h in state.hands] == [4, 4]
    assert all(card.kind is Kind.THIEF for hand in state.hands for card in hand)
    assert len(state.thief_deck) == 18 - 8 and len(state.gear_deck) == 36
    assert (state.coins, state.supply) == ((0, 0), 10)


def test_the_same_seed_deals_the_same_game_and_another_seed_does_not() -> None:
    assert create({"city": "paris"}, 3) == create({"city": "paris"}, 3)
    assert create({"city": "paris"}, 3) != create({"city": "paris"}, 4)


def test_r1_cream_starts_thief_rounds_and_mint_starts_gear_rounds() -> None:
    """R1: the first player is fixed by the round type, not by the round tracker's colour."""
    states = random_game(11)
    first_movers = {}
    for state in states:
        if state.to_move >= 0 and state.round not in first_movers:
            first_movers[state.round] = state.to_move
    assert first_movers == {0: 0, 1: 1, 2: 0, 3: 1, 4: 0, 5: 1}


@pytest.mark.parametrize("seed", range(5))
def test_each_player_plays_six_thieves_and_fifteen_gear_actions(seed: int) -> None:
    final = random_game(seed)[-1]
    for seat in (0, 1):
        thieves = sum(len(crew) for crew in final.board[seat])
        gear_played = sum(len(stack) - 1 for crew in final.board[seat] for stack in crew)
        gear_discarded = sum(card.kind is Kind.GEAR for card in final.discards[seat])
        assert thieves == 6
        # 15 Gear actions plus the last Gear of each round (3), minus any replayed by R7.
        assert gear_played + gear_discarded == 18


def test_hands_are_swapped_after_both_players_play() -> None:
    state = create({"city": "paris"}, 5)
    cream_hand = state.hands[0]
    state = apply(state, legal_actions(state)[0])
    first_play = state.board[0]
    assert not state.hands_known
    state = apply(state, legal_actions(state)[0])
    assert state.hands_known
    assert state.to_move == 0  # the same first player starts the next turn
    placed = [stack[0][0] for crew in first_play for stack in crew]
    remaining = list(cream_hand)
    remaining.remove(placed[0])
    assert list(state.hands[1]) == remaining  # Mint now holds what Cream passed on


def test_r2_a_thief_must_be_placed_in_a_thief_round() -> None:
    """R2: no discard in Thief rounds (only the final single card is discarded)."""
    state = create({"city": "london"}, 2)
    assert {a.kind for a in legal_actions(state)} == {ActionKind.THIEF}
    card = state.hands[0][0].name
    with pytest.raises(Exception, match=r"round 1 is a Thief round: place a Thief \(R2\)"):
        apply(state, Action(ActionKind.DISCARD, card))


def test_r3_with_no_thief_with_room_the_player_must_discard() -> None:
    """R3: Gear can only be discarded when none of your Thieves has room."""
    full = [B, "Helping Hand", "Skeleton Key", "Plasma Cutter"]
    state = scenario(board={0: {0: [full]}}, round=2, to_move=0, coins=(9, 0), hands=(("Skeleton Key",), ("Smoke Screen",)))  # fmt: skip
    assert legal_actions(state) == [Action(ActionKind.DISCARD, "Skeleton Key")]


def test_at_most_three_of_your_thieves_per_location() -> None:
    board = {0: {0: [[B], ["The Mime"], ["The Colonel"]]}}
    state = scenario(board=board, round=3, to_move=0, hands=(("The Dame", "The Saint"), ("The Actress", "The Barber")))  # fmt: skip
    assert {a.location for a in legal_actions(state)} == {1, 2}
    with pytest.raises(Exception, match="already have 3 Thieves at The Louvre"):
        apply(state, parse_action("thief The Dame at 0"))


# --- R7: The Driver and Velocé Wheels --------------------------------------------------------


def _final_state(board: dict[int, dict[int, list[list[str]]]], discards: tuple[tuple[str, ...], tuple[str, ...]]) -> State:  # fmt: skip
    """The last turn of round 6: each player discards their last Gear, then R7 begins."""
    state = scenario(city="rome", board=board, round=6, to_move=1, coins=(0, 0), discards=discards, hands=(("Smoke Screen", "Simple Disguise"), ("Plasma Cutter", "Skeleton Key")))  # fmt: skip
    state = apply(state, parse_action("discard Plasma Cutter"))
    return apply(state, parse_action("discard Smoke Screen"))


def test_r7_the_driver_replays_a_gear_from_the_discard_area_for_free() -> None:
    state = _final_state({0: {1: [["The Driver"]]}}, (("Blaze Shield Suit",), ()))
    assert state.pending and state.to_move == 0
    legal = legal_actions(state)
    assert Action(ActionKind.REPLAY, "Blaze Shield Suit", 1, 0) in legal
    assert Action(ActionKind.PASS) in legal
    assert all(a.location in (1, -1) for a in legal)  # only at the Driver's location
    after = apply(state, parse_action("replay Blaze Shield Suit at 1/0"))
    assert after.coins[0] == state.coins[0]  # free
    assert [c.name for c, _ in after.board[0][1][0]] == ["The Driver", "Blaze Shield Suit"]
    assert after.to_move == -1 and CAPER.is_terminal(after)


def test_r7_replayed_gear_has_its_on_play_effect() -> None:
    state = _final_state({0: {2: [["The Driver"]]}}, (("Skeleton Key",), ()))
    coins = state.coins[0]
    assert apply(state, parse_action("replay Skeleton Key at 2/0")).coins[0] == coins + 2


def test_r7_is_optional() -> None:
    state = _final_state({0: {0: [["The Driver"]]}}, (("Skeleton Key",), ()))
    after = apply(state, Action(ActionKind.PASS))
    assert after.to_move == -1
    assert after.board == state.board


def test_r7_the_round_six_first_player_resolves_first() -> None:
    board = {0: {0: [["The Driver"]]}, 1: {0: [[B, "Velocé Wheels"]]}}
    state = _final_state(board, (("Skeleton Key",), ("Helping Hand",)))
    assert [p.seat for p in state.pending] == [1, 0]
    assert state.to_move == 1
    state = apply(state, Action(ActionKind.PASS))
    assert state.to_move == 0


def test_r7_a_flipped_driver_does_nothing() -> None:
    state = _final_state({0: {0: [["~The Driver"]]}}, (("Skeleton Key",), ()))
    assert state.to_move == -1


def test_r7_with_nothing_to_replay_the_game_simply_ends() -> None:
    full_driver = ["The Driver", "Helping Hand", "Skeleton Key", "Plasma Cutter"]
    state = _final_state({0: {0: [full_driver]}}, (("Smoke Screen",), ()))
    assert state.to_move == -1  # no Thief there has room: no decision is asked for
