"""The pieces both editions share: the draft, the coin rule, disjoint sets and goods partitions.
The first-edition checks pin its behaviour to the formulas it had before the pieces were shared."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from arena.games.caper.cards import CATALOGUE as CLASSIC
from arena.games.caper.cards import Crew, Owner
from arena.games.caper_common.coins import gain, launder, pay, return_coin
from arena.games.caper_common.counting import best_partition, disjoint_sets
from arena.games.caper_common.draft import ROUNDS, deal, redeal_hidden, round_over, swap, turn_over
from arena.games.caper_common.listed import LastState


def test_deal_gives_the_top_cards_to_the_named_seat() -> None:
    cards = tuple(range(10))
    assert deal(cards, 3, top_seat=0) == (((0, 1, 2), (3, 4, 5)), (6, 7, 8, 9))
    assert deal(cards, 3, top_seat=1) == (((3, 4, 5), (0, 1, 2)), (6, 7, 8, 9))


def test_turns_swaps_and_round_ends() -> None:
    assert [r.hand_size for r in ROUNDS] == [4, 6, 3, 6, 2, 6]
    assert not turn_over(0, 0) and turn_over(0, 1) and turn_over(1, 0) and not turn_over(1, 1)
    assert swap(("a", "b")) == ("b", "a")
    assert round_over(((1,), (2,))) and not round_over(((1, 2), (3, 4)))


def test_redealing_hidden_cards_keeps_what_the_seat_knows() -> None:
    hands = ((1, 2), (3, 4))
    decks = ((10, 11, 12), (20, 21))
    new_hands, new_decks = redeal_hidden(hands, False, 0, decks, 0, random.Random(1), key=str)
    assert new_hands[0] == (1, 2)
    assert sorted((*new_hands[1], *new_decks[0])) == [3, 4, 10, 11, 12]
    assert new_decks[1] != () and sorted(new_decks[1]) == [20, 21]
    known, _ = redeal_hidden(hands, True, 0, decks, 0, random.Random(1), key=str)
    assert known == hands


def test_the_gain_rule() -> None:
    assert gain((0, 0), 3, 0, 2) == ((2, 0), 1)
    assert gain((4, 6), 0, 0, 2) == ((5, 5), 0)  # Europe F7
    assert gain((6, 4), 0, 1, 3) == ((5, 5), 0)
    assert pay((3, 1), 2, 0, 2) == ((1, 1), 4)
    assert return_coin((0, 2), 8, 0) == ((0, 2), 8)
    assert launder((1, 3), 0, (0, 0), 0) == ((1, 2), 0, (1, 0))
    assert launder((3, 1), 0, (0, 0), 0) == ((3, 1), 0, (0, 0))


def test_goods_partition_first_edition_values() -> None:
    assert best_partition((1, 1, 1), (1, 3, 7))[0] == 7
    assert best_partition((2, 2, 2), (1, 3, 7))[0] == 14
    assert best_partition((3, 0, 0), (1, 3, 7)) == (3, ((0,), (0,), (0,)))


def test_goods_partition_matches_the_europe_greedy_formula() -> None:
    """Spec section 10: 9c + 5(b - c) + 2(a - b) is optimal for 0-4 tokens of each type."""
    for counts in itertools.product(range(5), repeat=3):
        a, b, c = sorted(counts, reverse=True)
        assert best_partition(counts, (2, 5, 9))[0] == 9 * c + 5 * (b - c) + 2 * (a - b)


@st.composite
def crews(draw: st.DrawFn) -> Crew:
    colours = draw(st.lists(st.integers(0, 4), min_size=7, max_size=7))
    flipped = draw(st.integers(0, 3))
    return Crew(
        thieves=draw(st.integers(0, 3)),
        gear=sum(colours) + flipped,
        green=colours[0], purple=colours[1], red=colours[2], yellow=colours[3],
        light_blue=colours[4], pink=colours[5], dark_green=colours[6],
    )  # fmt: skip


# The first edition's set abilities as written before they used `disjoint_sets`.
CLASSIC_SETS: dict[str, tuple[str, Callable[[Crew, Crew], int]]] = {
    "The Actress": ("capers", lambda m, o: min(m.yellow, m.purple)),
    "The Barber": ("capers", lambda m, o: min(m.thieves, m.gear // 2)),
    "The Conductor": ("capers", lambda m, o: min(m.purple, m.green)),
    "The Dame": ("capers", lambda m, o: min(m.yellow, m.green)),
    "The Gentleman": ("points", lambda m, o: 3 * min(m.green, m.purple, m.yellow)),
    "The Tourist": ("capers", lambda m, o: m.gear // 3),
    "The Chef": ("capers", lambda m, o: min(m.light_blue, m.gear // 2)),
    "The Boxer": ("capers", lambda m, o: min(m.dark_green, m.gear // 3)),
    "The Royal": ("points", lambda m, o: min(m.dark_green + o.dark_green, m.green + o.green)),
    "Utility Belt": ("capers", lambda m, o: m.gear // 3),
    "Antique Shop": ("reward", lambda m, o: 4 + 2 * min(m.yellow, m.green)),
    "Art Gallery": ("reward", lambda m, o: 4 + 2 * min(m.purple, m.green)),
    "The Yacht": ("reward", lambda m, o: 4 + 2 * min(m.yellow, m.purple)),
    "Trevi Fountain": ("reward", lambda m, o: 4 + 3 * (m.pink // 2)),
}


@given(crews(), crews())
def test_first_edition_set_abilities_are_unchanged(mine: Crew, theirs: Crew) -> None:
    owner = Owner(goods=0, laundered=0)
    for name, (kind, formula) in CLASSIC_SETS.items():
        card = CLASSIC[name]
        got = (
            card.capers(mine, theirs)
            if kind == "capers"
            else getattr(card, kind)(mine, theirs, owner)
        )
        assert got == formula(mine, theirs), name


def test_disjoint_sets_needs_every_slot() -> None:
    assert disjoint_sets([(3, 1), (2, 1)], gear=5) == 2
    assert disjoint_sets([(3, 1)], any_gear=1, gear=4) == 2
    assert disjoint_sets([], any_gear=2, gear=5, thief_slots=1, thieves=1) == 1
    assert disjoint_sets([]) == 0


def test_last_state_recalls_a_value_only_for_the_very_state_it_was_kept_for() -> None:
    memory, state, equal_state = LastState(), ["board", 1], ["board", 1]
    assert memory.recall(state) is None
    memory.keep(state, (1, 2))
    assert memory.recall(state) == (1, 2)
    assert memory.recall(equal_state) is None  # matched by identity, not equality
    memory.keep(equal_state, (3,))
    assert memory.recall(state) is None and memory.recall(equal_state) == (3,)
