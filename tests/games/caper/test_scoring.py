"""Scoring (section 9): the rulebook's Louvre example, stolen-goods sets, winners and tie-breaks."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games.caper import CAPER
from arena.games.caper.cards import Good
from arena.games.caper.scenario import one_location, scenario
from arena.games.caper.scoring import best_goods_partition, score
from arena.games.caper.state import FINAL_ROUND

J, A, P, W = Good.JEWEL, Good.ANTIQUE, Good.PAINTING, Good.WILD


def test_rulebook_louvre_example_the_dame_and_the_artist_make_three_capers() -> None:
    """Reference card: 3 capers at The Louvre, one from The Dame and two from The Artist."""
    mine = [["The Dame", "Helping Hand", "Plasma Cutter"], ["The Artist", "Suction Scalers"]]
    sheet = score(one_location(mine, location="The Louvre"))
    assert sheet.capers[0][0] == 3
    assert sheet.winners[0] == 0
    assert sheet.breakdown[0]["locations"] == 5
    assert P in sheet.goods[0]


def test_goods_sets_score_one_three_and_seven() -> None:
    assert best_goods_partition(())[0] == 0
    assert best_goods_partition((J,))[0] == 1
    assert best_goods_partition((J, A))[0] == 3
    assert best_goods_partition((J, A, P))[0] == 7
    assert best_goods_partition((J, J, J))[0] == 3  # sets need different types
    assert best_goods_partition((J, J, A, A, P, P))[0] == 14


def test_wild_goods_take_the_type_that_scores_best() -> None:
    assert best_goods_partition((W, W, W))[0] == 7
    assert best_goods_partition((J, J, W))[0] == 4  # (J + W as A) + J, not three Jewels
    value, sets = best_goods_partition((J, A, W, J))
    assert value == 8  # J A P(wild) + J
    assert sorted(len(s) for s in sets) == [1, 3]


def _partitions(items: list[Good]) -> list[list[list[Good]]]:
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    found = []
    for partition in _partitions(rest):
        found.append([[first], *partition])
        for i in range(len(partition)):
            found.append([*partition[:i], [first, *partition[i]], *partition[i + 1 :]])
    return found


def _brute_force(goods: Sequence[Good]) -> int:
    """Independent check: every assignment of Wilds, every partition of the goods into sets."""
    best = 0
    wild_choices = [[J, A, P] if g is W else [g] for g in goods]
    for typed in set(itertools.product(*wild_choices)):
        for partition in _partitions(sorted(typed)):
            if all(len(set(g)) == len(g) <= 3 for g in partition):
                best = max(best, sum({1: 1, 2: 3, 3: 7}[len(g)] for g in partition))
    return best


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([J, A, P, W]), max_size=6))
def test_goods_partition_is_optimal(goods: list[Good]) -> None:
    value, sets = best_goods_partition(tuple(goods))
    assert value == _brute_force(goods)
    assert sum(len(s) for s in sets) == len(goods)
    assert all(len(set(s)) == len(s) for s in sets)


def _finished(mine: list[list[str]], theirs: list[list[str]], coins: tuple[int, int]):  # type: ignore[no-untyped-def]
    state = one_location(mine, theirs, coins=coins)
    return state._replace(round=FINAL_ROUND, to_move=-1, hands=((), ()))


def test_most_points_wins() -> None:
    result = CAPER.result(_finished([["The Colonel", "Simple Disguise"]], [], (0, 5)))
    assert result.winner == 0 and result.tiebreak == ""
    assert result.scores[0] > result.scores[1]


def test_a_points_tie_goes_to_the_player_with_more_coins() -> None:
    result = CAPER.result(_finished([["The Colonel"]], [["The Colonel"]], (1, 3)))
    assert result.scores[0] == result.scores[1]
    assert (result.winner, result.tiebreak) == (1, "coins")


def test_a_points_and_coins_tie_goes_to_cream() -> None:
    result = CAPER.result(_finished([["The Colonel"]], [["The Colonel"]], (2, 2)))
    assert (result.winner, result.tiebreak) == (0, "cream")


def test_result_breakdown_adds_up_and_names_every_category() -> None:
    state = scenario(
        locations=("The Louvre", "The Bank", "The Chapel"),
        board={
            0: {
                0: [["The Smuggler", "Simple Disguise", "Helping Hand"]],
                1: [["The Banker", "Skeleton Key"]],
            },
            1: {2: [["The Mime", "Smoke Screen"]]},
        },
        round=7,
        to_move=-1,
    )
    result = CAPER.result(state)
    assert set(result.breakdown[0]) == {"locations", "thieves", "gear", "stolen_goods"}
    assert result.breakdown[0] == {"locations": 5, "thieves": 1, "gear": 0, "stolen_goods": 7}
    assert result.breakdown[1] == {"locations": 5 + 1, "thieves": 0, "gear": 1, "stolen_goods": 0}
    assert result.scores == (13, 7)
    assert result.details["location_winners"] == [0, None, 1]
