"""Hidden information with 3 and 4 players, seat by seat: rulings V4 (the Snitch game) and V9
(teams), and the conformance checker over both variants."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games.caper import CAPER, Action, ActionKind
from arena.games.caper.cards import Card, Kind
from arena.games.caper.observation import observe, resample_hidden
from arena.games.caper.rules import apply, create, legal_actions
from arena.games.caper.state import ROUNDS, SNITCH, State
from arena.games.conformance import ConformanceError, check_game

CITIES = ("paris", "rome", "london")
PROBES = (
    Action(ActionKind.GIVE, "The Dame", other="The Mime"),
    Action(ActionKind.GIVE, "Skeleton Key", other="Skeleton Key"),
    Action(ActionKind.SEND, "Skeleton Key", other="Skeleton Key"),
    Action(ActionKind.SEND, "The Mime", other="The Dame"),
    Action(ActionKind.DISCARD, "Skeleton Key"),
    Action(ActionKind.THIEF, "The Dame", 0),
    Action(ActionKind.GEAR, "Simple Disguise", 0, 0),
    Action(ActionKind.PASS),
)


def random_states(players: int, seed: int, city: str = "paris") -> list[State]:
    rng = random.Random(seed)
    states = [create({"city": city, "players": players}, seed)]
    while states[-1].to_move >= 0:
        states.append(apply(states[-1], rng.choice(legal_actions(states[-1]))))
    return states


def stranger(state: State, card: Card) -> Card:
    """A card of `card`'s kind, with another name, from the undealt deck."""
    deck = state.thief_deck if card.kind is Kind.THIEF else state.gear_deck
    return next(other for other in deck if other.name != card.name)


def swap_first(cards: tuple[Card, ...], state: State) -> tuple[Card, ...]:
    return (stranger(state, cards[0]), *cards[1:])


@pytest.mark.parametrize(
    ("players", "seat"), [(3, 0), (3, 1), (3, 2), (4, 0), (4, 1), (4, 2), (4, 3)]
)
def test_v4_v9_no_seat_sees_what_its_role_hides(players: int, seat: int) -> None:
    rng = random.Random(seat)
    changed = 0
    for state in random_states(players, 40 + seat):
        other = resample_hidden(state, seat, rng)
        assert observe(other, seat) == observe(state, seat)
        changed += other.hands != state.hands or other.lookout_hands != state.lookout_hands
    assert changed > 20  # the check means something: hidden hands really were dealt anew


def test_v4_a_mastermind_sees_its_own_hand_and_never_the_others() -> None:
    state = apply(
        create({"city": "paris", "players": 3}, 1),
        legal_actions(create({"city": "paris", "players": 3}, 1))[0],
    )
    cream = observe(state, 0)
    assert cream.hand == tuple(sorted(card.name for card in state.hands[0]))
    assert cream.opponent_hand is None and cream.opponent_hand_size == 2
    other = state._replace(hands=(state.hands[0], swap_first(state.hands[1], state)))
    assert observe(other, 0) == cream
    assert observe(other, 1) != observe(state, 1)
    assert observe(other, SNITCH) == observe(state, SNITCH)  # it does not know who holds what


def test_v4_the_snitch_never_sees_the_two_cards_it_dealt_unseen() -> None:
    state = create({"city": "rome", "players": 3}, 2)
    snitch = observe(state, SNITCH)
    assert snitch.hand == tuple(sorted(card.name for card in state.snitch_deck[:2]))
    assert snitch.hand_sizes == (1, 1, 2)
    unseen = state._replace(
        hands=(swap_first(state.hands[0], state), swap_first(state.hands[1], state))
    )
    assert observe(unseen, SNITCH) == snitch
    deeper = state._replace(
        snitch_deck=state.snitch_deck[:2] + swap_first(state.snitch_deck[2:], state)
    )
    assert observe(deeper, SNITCH) == snitch  # nor the Snitch deck below its draw
    drawn = state._replace(snitch_deck=swap_first(state.snitch_deck, state))
    assert observe(drawn, SNITCH) != snitch


def test_v4_the_snitch_knows_which_mastermind_got_which_card_and_nobody_else_does() -> None:
    state = create({"city": "london", "players": 3}, 3)
    gift = legal_actions(state)[-1]
    state = apply(state, gift)
    assert observe(state, SNITCH).passed == ((gift.card, gift.other),)
    assert observe(state, SNITCH).hand == ()  # nothing drawn until its next turn
    assert observe(state, 0).passed == observe(state, 1).passed == ()
    assert "passed" in observe(state, SNITCH).to_json()


def test_v9_a_lookout_sees_its_hand_what_it_sent_and_what_came_back() -> None:
    state = create({"city": "paris", "players": 4}, 4)
    lookout = observe(state, 2)
    assert lookout.role == "lookout" and lookout.hand == tuple(
        c.name for c in state.lookout_hands[0]
    )
    sent = legal_actions(state)[0]
    state = apply(state, sent)
    state = apply(state, legal_actions(state)[0])
    # Cream's Mastermind holds what Mint's Lookout sent: hidden from Cream's Lookout.
    other = state._replace(hands=(swap_first(state.hands[0], state), state.hands[1]))
    assert observe(other, 2) == observe(state, 2)
    assert observe(other, 0) != observe(state, 0)
    # The other Lookout's hand is hidden from it too.
    other = state._replace(
        lookout_hands=(state.lookout_hands[0], swap_first(state.lookout_hands[1], state))
    )
    assert observe(other, 2) == observe(state, 2)
    for _ in range(2):
        state = apply(state, legal_actions(state)[0])
    view = observe(state, 2)
    assert view.passed == ((sent.card, sent.other),)
    assert len(view.received) == 1 and view.received[0] in view.hand


def test_v9_a_mastermind_sees_only_the_two_cards_it_holds() -> None:
    state = create({"city": "rome", "players": 4}, 5)
    for _ in range(2):
        state = apply(state, legal_actions(state)[0])
    cream = observe(state, 0)
    assert (
        cream.hand == tuple(sorted(card.name for card in state.hands[0])) and len(cream.hand) == 2
    )
    hidden = state._replace(
        hands=(state.hands[0], swap_first(state.hands[1], state)),
        lookout_hands=tuple(swap_first(hand, state) for hand in state.lookout_hands),  # type: ignore[arg-type]
    )
    assert observe(hidden, 0) == cream  # not its Lookout's hand, nor the other team's
    assert cream.passed == () and cream.received == ()


def test_v9_team_mates_share_nothing_but_the_table() -> None:
    state = create({"city": "rome", "players": 4}, 6)
    for _ in range(3):
        state = apply(state, legal_actions(state)[0])
    mastermind, lookout = observe(state, 0).to_json(), observe(state, 2).to_json()
    assert mastermind["hand"] != lookout["hand"]
    public = ("board", "coins", "discards", "supply", "locations", "round", "to_move")
    assert all(mastermind[key] == lookout[key] for key in public)


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**63 - 1),
    city=st.sampled_from(CITIES),
    players=st.sampled_from((3, 4)),
)
def test_random_variant_games_keep_every_invariant(seed: int, city: str, players: int) -> None:
    config: dict[str, str | int] = {"city": city, "players": players}
    report = check_game(CAPER, config, [seed], resample_hidden, PROBES)
    plays = 2 * (6 + 15)  # every Thief and Gear play of both Masterminds
    passes = sum(size - 1 for _, size, _ in ROUNDS) * (players - 2)
    assert report.decisions >= plays + passes


def test_many_seeded_variant_games_keep_every_invariant() -> None:
    for players in (3, 4):
        for city in CITIES:
            config: dict[str, str | int] = {"city": city, "players": players}
            assert check_game(CAPER, config, range(40), resample_hidden).games == 40


def test_the_checker_looks_at_every_seat_of_a_variant() -> None:
    def leaky(state: State, seat: int, rng: random.Random) -> State:
        # A change the Mint Lookout can see: the checker must notice it for seat 3.
        if seat != 3 or not state.lookout_hands[1]:
            return state
        return state._replace(
            lookout_hands=(state.lookout_hands[0], swap_first(state.lookout_hands[1], state))
        )

    with pytest.raises(ConformanceError, match="seat 3's observation"):
        check_game(CAPER, {"city": "paris", "players": 4}, [1], leaky)


def test_v4_v9_a_pass_is_face_down_to_every_other_seat() -> None:
    for players, verb in ((3, "give"), (4, "send")):
        state = create({"city": "paris", "players": players}, 7)
        action = legal_actions(state)[0]
        assert CAPER.action_seen_by(state, action, 2) == CAPER.action_text(action)
        for seat in (0, 1, players - 1):
            if seat != 2:
                assert CAPER.action_seen_by(state, action, seat) == f"{verb} two cards"
        while state.to_move >= 2:
            state = apply(state, legal_actions(state)[0])
        play = legal_actions(state)[0]  # a Mastermind's play is public
        assert CAPER.action_seen_by(state, play, 2) == CAPER.action_text(play)
