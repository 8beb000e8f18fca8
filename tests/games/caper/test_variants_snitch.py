"""Three players, the Snitch (section 12.1): rulings V1, V2, V3 and V5. V4 is in
test_variants_hidden.py."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from arena.games.api import IllegalActionError, WrongSeatError
from arena.games.caper import CAPER
from arena.games.caper.rules import apply, create, legal_actions
from arena.games.caper.scoring import snitch_score
from arena.games.caper.state import ROUNDS, SNITCH, Action, ActionKind, State

SNITCH_GAME: dict[str, str | int] = {"city": "paris", "players": 3}


def names(cards: tuple[object, ...]) -> list[str]:
    return sorted(card.name for card in cards)  # type: ignore[attr-defined]


def play_until(state: State, done: object, rng: random.Random) -> State:
    while not done(state):  # type: ignore[operator]
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def random_game(seed: int) -> list[State]:
    rng = random.Random(seed)
    states = [create(SNITCH_GAME, seed)]
    while states[-1].to_move >= 0:
        states.append(apply(states[-1], rng.choice(legal_actions(states[-1]))))
    return states


def test_v1_a_round_deals_twice_its_card_count_as_the_snitch_deck() -> None:
    two = create({"city": "paris"}, 11)
    three = create(SNITCH_GAME, 11)
    # The same shuffle: the 8 cards the 2-player game deals are the Snitch deck here.
    assert three.thief_deck == two.thief_deck
    dealt = [*three.hands[0], *three.hands[1], *three.snitch_deck]
    assert Counter(card.name for card in dealt) == Counter(
        card.name for hand in two.hands for card in hand
    )
    assert [len(hand) for hand in three.hands] == [1, 1]
    assert len(three.snitch_deck) == 2 * 4 - 2
    assert three.to_move == SNITCH


def test_v1_the_top_card_goes_to_the_rounds_first_player() -> None:
    state = play_until(create(SNITCH_GAME, 5), lambda s: s.round == 1, random.Random(2))
    # Round 2 is a Gear round that Mint starts: Mint got the top Gear, Cream the next one.
    gear_before_round_two = create(SNITCH_GAME, 5).gear_deck
    assert ROUNDS[1].first == 1
    assert state.hands[1] == (gear_before_round_two[0],)
    assert state.hands[0] == (gear_before_round_two[1],)
    assert state.snitch_deck == gear_before_round_two[2:12]


def test_v2_the_snitch_gives_the_two_cards_it_drew_one_to_each_mastermind() -> None:
    state = create(SNITCH_GAME, 3)
    top = [card.name for card in state.snitch_deck[:2]]
    gifts = legal_actions(state)
    expected = {(top[0], top[1]), (top[1], top[0])}
    assert sorted((a.card, a.other) for a in gifts) == sorted(expected)
    assert all(a.kind is ActionKind.GIVE for a in gifts)
    gift = gifts[-1]
    after = apply(state, gift, SNITCH)
    assert names(after.hands[0]) == sorted([state.hands[0][0].name, gift.card])
    assert names(after.hands[1]) == sorted([state.hands[1][0].name, gift.other])
    assert after.snitch_deck == state.snitch_deck[2:]
    assert after.to_move == ROUNDS[0].first


def test_v2_identical_cards_give_one_choice() -> None:
    for seed in range(200):
        state = create(SNITCH_GAME, seed)
        state = play_until(state, lambda s: s.round == 1, random.Random(seed))
        if state.snitch_deck[0].name == state.snitch_deck[1].name:
            assert len(legal_actions(state)) == 1
            return
    raise AssertionError("no deal drew two copies of a card first")


def test_v2_the_masterminds_keep_their_other_card_there_is_no_swap() -> None:
    state = create(SNITCH_GAME, 4)
    state = apply(state, legal_actions(state)[0], SNITCH)
    state = apply(state, legal_actions(state)[0], 0)  # Cream starts the Thief rounds
    mint_hand = [card.name for card in state.hands[1]]
    mint_play = legal_actions(state)[-1]
    cream_kept = state.hands[0]
    state = apply(state, mint_play, 1)
    assert state.to_move == SNITCH
    assert state.hands[0] == cream_kept
    mint_hand.remove(mint_play.card)
    assert [card.name for card in state.hands[1]] == mint_hand


def test_v2_a_mastermind_may_discard_for_a_coin_as_in_the_two_player_game() -> None:
    states = random_game(8)
    gear_turns = [
        s
        for s in states
        if s.to_move in (0, 1) and not s.pending and ROUNDS[s.round].kind == "gear"
    ]
    both = 0
    for state in gear_turns:
        legal = legal_actions(state)
        discards = {a.card for a in legal if a.kind is ActionKind.DISCARD}
        assert discards == {card.name for card in state.hands[state.to_move]}
        both += any(a.kind is ActionKind.GEAR for a in legal)
    assert both  # a discard stays open when a Gear could be played too
    state = next(s for s in gear_turns if s.supply > 0)
    discard = next(a for a in legal_actions(state) if a.kind is ActionKind.DISCARD)
    after = apply(state, discard)
    assert after.coins[state.to_move] == state.coins[state.to_move] + 1


def test_v2_only_the_snitch_gives_and_only_the_drawn_cards() -> None:
    state = create(SNITCH_GAME, 6)
    top = [card.name for card in state.snitch_deck[:2]]
    with pytest.raises(WrongSeatError):
        apply(state, legal_actions(state)[0], 0)
    wrong = "The Mime" if "The Mime" not in top else "The Dame"
    with pytest.raises(IllegalActionError, match="the Snitch drew"):
        apply(state, Action(ActionKind.GIVE, top[0], other=wrong))
    with pytest.raises(IllegalActionError, match="names two cards and nothing else"):
        apply(state, Action(ActionKind.GIVE, top[0], 1, other=top[1]))
    with pytest.raises(IllegalActionError, match="must give"):
        apply(state, Action(ActionKind.THIEF, top[0], 0))
    after = apply(state, legal_actions(state)[0])
    with pytest.raises(IllegalActionError, match="a Mastermind plays"):
        apply(after, Action(ActionKind.GIVE, top[0], other=top[1]))


@pytest.mark.parametrize("seed", range(6))
def test_v3_the_last_cards_are_discarded_without_a_coin_when_the_snitch_deck_is_empty(
    seed: int,
) -> None:
    states = random_game(seed)
    index = next(i for i, s in enumerate(states) if s.round == 1)
    last, round_two = states[index - 1], states[index]
    assert last.snitch_deck == () and sorted(len(h) for h in last.hands) == [1, 2]
    assert [len(d) for d in round_two.discards] == [1, 1]
    # Round 1 moves coins only by Thief incomes: the discarded last cards added none.
    incomes = sum(stack[0][0].income for side in round_two.board for c in side for stack in c)
    assert sum(round_two.coins) == min(10, incomes)


def test_v3_each_mastermind_plays_one_card_fewer_than_the_rounds_count() -> None:
    states = random_game(10)
    for number, (_, size, _) in enumerate(ROUNDS):
        in_round = [s for s in states if s.round == number]
        for seat in (0, 1):
            turns = sum(s.to_move == seat for s in in_round)
            assert turns == size - 1, (number, seat)
        assert sum(s.to_move == SNITCH for s in in_round) == size - 1


def test_v5_the_snitch_scores_the_lower_mastermind_plus_a_sixth_of_the_higher() -> None:
    assert snitch_score((30, 12)) == 12 + 5
    assert snitch_score((18, 20)) == 18 + 3
    assert snitch_score((5, 5)) == 5


@pytest.mark.parametrize("seed", range(12))
def test_v5_the_snitch_wins_at_the_higher_score_or_more(seed: int) -> None:
    final = random_game(seed)[-1]
    result = CAPER.result(final)
    cream, mint, snitch = result.scores
    assert snitch == min(cream, mint) + max(cream, mint) // 6
    assert sum(result.breakdown[2].values()) == snitch
    if snitch >= max(cream, mint):
        assert result.winner == SNITCH
    else:
        assert result.winner == (0 if cream > mint else 1)
    assert result.details["winners"] == [result.winner]


def test_v5_both_outcomes_happen() -> None:
    winners = {CAPER.result(random_game(seed)[-1]).winner for seed in range(40)}
    assert SNITCH in winners and winners & {0, 1}
