"""Four players, teams Cream and Mint (section 12.2): rulings V6, V7, V8 and V10. V9 is in
test_variants_hidden.py."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from arena.games.api import IllegalActionError, WrongSeatError
from arena.games.caper import CAPER
from arena.games.caper.cards import CATALOGUE, Kind
from arena.games.caper.rules import EMPTY_SIDE, apply, create, legal_actions
from arena.games.caper.state import (
    CREAM_LOOKOUT,
    MINT_LOOKOUT,
    ROUNDS,
    Action,
    ActionKind,
    State,
)
from arena.games.caper_common.draft import with_seat

TEAM_GAME: dict[str, str | int] = {"city": "rome", "players": 4}


def names(cards: tuple[object, ...]) -> list[str]:
    return sorted(card.name for card in cards)  # type: ignore[attr-defined]


def random_game(seed: int) -> list[State]:
    rng = random.Random(seed)
    states = [create(TEAM_GAME, seed)]
    while states[-1].to_move >= 0:
        states.append(apply(states[-1], rng.choice(legal_actions(states[-1]))))
    return states


def first_gear_turn(seed: int) -> State:
    """A Mastermind to act in round 2 (Gear), after both Lookouts have sent."""
    return next(s for s in random_game(seed) if s.round == 1 and s.to_move in (0, 1))


def test_v6_each_lookout_is_dealt_the_rounds_count_and_the_masterminds_nothing() -> None:
    two = create({"city": "rome"}, 17)
    four = create(TEAM_GAME, 17)
    assert four.hands == ((), ())
    assert four.lookout_hands == two.hands  # Cream's Lookout takes the top cards
    assert four.thief_deck == two.thief_deck
    assert four.to_move == CREAM_LOOKOUT


def test_v7_a_lookout_sends_any_two_of_its_cards_to_the_opposing_mastermind() -> None:
    state = create(TEAM_GAME, 2)
    hand = [card.name for card in state.lookout_hands[0]]
    sends = legal_actions(state)
    assert {(a.card, a.other) for a in sends} == set(combinations(hand, 2))
    assert sends == sorted(sends) and all(a.kind is ActionKind.SEND for a in sends)
    send = sends[0]
    state = apply(state, send, CREAM_LOOKOUT)
    assert names(state.hands[1]) == sorted([send.card, send.other])  # to Mint's Mastermind
    assert state.hands[0] == () and state.to_move == MINT_LOOKOUT
    back = legal_actions(state)[-1]
    state = apply(state, back, MINT_LOOKOUT)
    assert names(state.hands[0]) == sorted([back.card, back.other])  # to Cream's Mastermind
    assert state.to_move == ROUNDS[0].first
    assert len(state.lookout_hands[0]) == len(state.lookout_hands[1]) == 4 - 2


def test_v7_the_cream_lookout_sends_first_and_only_cards_it_holds() -> None:
    state = create(TEAM_GAME, 3)
    with pytest.raises(WrongSeatError):
        apply(state, legal_actions(state)[0], MINT_LOOKOUT)
    hand = [card.name for card in state.lookout_hands[0]]
    missing = next(name for name in ("The Mime", "The Dame", "The Don") if name not in hand)
    with pytest.raises(IllegalActionError, match="does not hold both"):
        apply(state, Action(ActionKind.SEND, min(hand[0], missing), other=max(hand[0], missing)))
    with pytest.raises(IllegalActionError, match="name order"):
        apply(state, Action(ActionKind.SEND, hand[-1], other=hand[0]))
    with pytest.raises(IllegalActionError, match="must send two cards"):
        apply(state, Action(ActionKind.THIEF, hand[0], 0))


def test_v7_each_mastermind_passes_its_remaining_card_back_to_its_own_lookout() -> None:
    state = create(TEAM_GAME, 4)
    for _ in range(2):  # both Lookouts send
        state = apply(state, legal_actions(state)[0])
    lookouts = state.lookout_hands
    kept = []
    for seat in (0, 1):  # Cream starts the Thief rounds
        hand = [card.name for card in state.hands[seat]]
        play = legal_actions(state)[0]
        state = apply(state, play, seat)
        hand.remove(play.card)
        kept.append(hand[0])
    assert state.hands == ((), ()) and state.to_move == CREAM_LOOKOUT
    for team in (0, 1):
        assert names(state.lookout_hands[team]) == sorted([*names(lookouts[team]), kept[team]])
    assert state.passes[-2:] == ((0, (kept[0],)), (1, (kept[1],)))


def test_v7_a_mastermind_may_discard_only_when_neither_card_can_be_played() -> None:
    state = first_gear_turn(5)
    seat = state.to_move
    costly = (CATALOGUE["Blaze Shield Suit"], CATALOGUE["Briefcase"])  # 3 coins each
    # Nothing to pay with, nothing else in hand; a coin left in the supply for the discard.
    poor = state._replace(
        hands=with_seat(state.hands, seat, costly),
        coins=with_seat(state.coins, seat, 0),
        supply=max(1, state.supply),
    )
    legal = legal_actions(poor)
    assert {a.kind for a in legal} == {ActionKind.DISCARD}
    assert {a.card for a in legal} == {"Blaze Shield Suit", "Briefcase"}
    rich = poor._replace(coins=with_seat(poor.coins, seat, 3))
    rich_legal = legal_actions(rich)
    assert rich_legal and all(a.kind is ActionKind.GEAR for a in rich_legal)
    with pytest.raises(IllegalActionError, match="only when neither card can be played"):
        apply(rich, Action(ActionKind.DISCARD, "Briefcase"))
    after = apply(poor, Action(ActionKind.DISCARD, "Briefcase"))
    assert after.coins[seat] == 1


def test_v8_the_round_ends_after_the_lookouts_last_cards_are_played() -> None:
    states = random_game(6)
    for number, (_, size, _) in enumerate(ROUNDS):
        in_round = [s for s in states if s.round == number]
        for seat in (0, 1):
            assert sum(s.to_move == seat for s in in_round) == size - 1, (number, seat)
        for lookout in (CREAM_LOOKOUT, MINT_LOOKOUT):
            assert sum(s.to_move == lookout for s in in_round) == size - 1
    index = next(i for i, s in enumerate(states) if s.round == 1)
    last, round_two = states[index - 1], states[index]
    assert last.lookout_hands == ((), ())
    assert [len(d) for d in round_two.discards] == [1, 1]  # the last cards, not passed back
    incomes = sum(stack[0][0].income for side in round_two.board for c in side for stack in c)
    assert sum(round_two.coins) == min(10, incomes)  # and discarded without a coin


@pytest.mark.parametrize("seed", range(10))
def test_v10_a_team_scores_its_masterminds_points_plus_3_per_discarded_card(seed: int) -> None:
    states = random_game(seed)
    final = states[-1]
    result = CAPER.result(final)
    two_player = CAPER.result(final._replace(players=2))
    for team in (0, 1):
        discards = 3 * len(final.discards[team])
        assert result.scores[team] == two_player.scores[team] + discards
        assert result.scores[team + 2] == result.scores[team]
        assert result.breakdown[team]["discards"] == discards
        assert result.breakdown[team + 2] == result.breakdown[team]
        assert sum(result.breakdown[team].values()) == result.scores[team]
    # The last card of each round at least (R7 may replay some of them afterwards).
    assert min(len(d) for d in next(s for s in states if s.round == 6).discards) >= 6
    winner = result.winner
    assert winner in (0, 1) and result.scores[winner] >= result.scores[1 - winner]
    assert result.details["winners"] == [winner, winner + 2]


def test_v10_discards_decide_and_a_tie_goes_to_coins_then_cream() -> None:
    final = random_game(7)[-1]
    empty = final._replace(
        board=(EMPTY_SIDE, EMPTY_SIDE), discards=((), ()), laundered=(0, 0), coins=(2, 3)
    )
    assert CAPER.result(empty).scores == (0, 0, 0, 0)
    assert (CAPER.result(empty).winner, CAPER.result(empty).tiebreak) == (1, "coins")
    even = empty._replace(coins=(3, 3))
    assert (CAPER.result(even).winner, CAPER.result(even).tiebreak) == (0, "cream")
    gear = tuple(card for card in CATALOGUE.values() if card.kind is Kind.GEAR)[:2]
    discarded = empty._replace(discards=((), gear), coins=(5, 0))
    assert CAPER.result(discarded).scores == (0, 6, 0, 6)
    assert CAPER.result(discarded).winner == 1
