"""Caper's further variant rulings V13 to V15 (docs/rules/caper.md, section 12.4)."""

from __future__ import annotations

from arena.games.caper import CAPER
from arena.games.caper.rules import apply
from arena.games.caper.scenario import scenario
from arena.games.caper.scoring import DISCARD_POINTS, result, score, snitch_score, team_totals
from arena.games.caper.state import SNITCH, parse_action
from arena.games.caper.variants import deal_round


def test_v13_the_snitch_deck_is_the_top_2n_cards_its_first_to_the_rounds_first_player() -> None:
    """V13, 3 players: round 2 (Gear, 6 cards, Mint first): the top card goes to Mint, the
    second to Cream, the next 10 are the Snitch deck in order, the rest stays below."""
    state = CAPER.create({"players": 3}, 5)
    deck = state.gear_deck
    dealt = deal_round(state, 1)
    assert dealt.hands == ((deck[1],), (deck[0],))
    assert dealt.snitch_deck == deck[2:12] and dealt.gear_deck == deck[12:]
    thieves = deal_round(dealt._replace(thief_deck=state.thief_deck), 2)  # Thief, 3, Cream
    assert thieves.hands == ((state.thief_deck[0],), (state.thief_deck[1],))
    assert thieves.snitch_deck == state.thief_deck[2:6]


def test_v13_with_four_players_cream_lookout_takes_the_top_n_mint_lookout_the_next() -> None:
    state = CAPER.create({"players": 4}, 5)
    deck = state.gear_deck
    dealt = deal_round(state, 1)
    cream, mint = dealt.lookout_hands
    assert sorted(c.name for c in cream) == sorted(c.name for c in deck[:6])
    assert sorted(c.name for c in mint) == sorted(c.name for c in deck[6:12])
    assert dealt.gear_deck == deck[12:] and dealt.hands == ((), ())


def test_v14_every_card_in_the_discard_area_scores_three_until_the_driver_replays_it() -> None:
    """V14: Gear discarded and each round's last card, Thieves included, 3 points each with 4
    players; a Gear The Driver replays (R7) leaves the discard area and its 3 points."""
    discards = (("Blaze Shield Suit", "The Dame"), ())
    hands = (("Smoke Screen", "Simple Disguise"), ("Plasma Cutter", "Skeleton Key"))
    state = scenario(city="rome", board={0: {1: [["The Driver"]]}}, round=6, to_move=1, discards=discards, hands=hands)  # fmt: skip
    state = apply(apply(state, parse_action("discard Plasma Cutter")), parse_action("discard Smoke Screen"))  # fmt: skip
    assert state.pending  # The Driver may replay a Gear from Cream's discard area

    def discard_points(state: object) -> tuple[int, int]:
        four = state._replace(players=4)  # type: ignore[attr-defined]
        sheet = score(four)
        totals = team_totals(four, sheet)
        return totals[0] - sheet.totals[0], totals[1] - sheet.totals[1]

    cream_cards = len(state.discards[0])
    assert cream_cards >= 3  # the two above and Smoke Screen, discarded for a coin
    assert discard_points(state) == (DISCARD_POINTS * cream_cards, DISCARD_POINTS * len(state.discards[1]))  # fmt: skip
    after = apply(state, parse_action("replay Blaze Shield Suit at 1/0"))
    assert discard_points(after)[0] == DISCARD_POINTS * (cream_cards - 1)


def test_v15_masterminds_level_on_points_lose_to_the_snitch_whatever_the_coins() -> None:
    """V15: at x all, the Snitch scores x + x//6 >= x and wins; the section-9 tie-break (coins,
    then Cream) never decides a 3-player game."""
    assert all(snitch_score((x, x)) >= x for x in range(200))
    state = scenario(round=7, coins=(5, 1))
    assert result(state).winner == 0 and result(state).tiebreak == "coins"  # 2 players
    three = result(state._replace(players=3))
    assert three.scores[0] == three.scores[1] and three.winner == SNITCH
    assert three.tiebreak == ""
