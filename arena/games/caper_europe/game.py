"""The `Game` object for Caper: Europe: the arena-facing face of the rules modules."""

from __future__ import annotations

from collections.abc import Mapping

from arena.games.caper_common.coins import TOTAL_COINS
from arena.games.caper_common.game import CaperFamilyGame, Edition, Hands
from arena.games.caper_europe import observation, render, rules, scoring
from arena.games.caper_europe.effects import Good
from arena.games.caper_europe.observation import EuropeObservation
from arena.games.caper_europe.state import (
    TOKENS_PER_TYPE,
    Action,
    State,
    action_text,
    parse_action,
)


def _hands(state: State) -> Hands:
    return tuple(tuple(card.id for card in hand) for hand in state.hands)


class CaperEuropeGame(CaperFamilyGame[State, Action, EuropeObservation]):
    """Caper: Europe, the second edition, for two players (`docs/rules/caper-europe.md`)."""

    id = "caper-europe"
    name = "Caper: Europe"
    rules_version = 1
    edition = Edition(
        rules.create,
        rules.legal_actions,
        rules.apply,
        scoring.result,
        observation.observe,
        render.render,
        action_text,
        parse_action,
        _hands,
    )

    def conserved(self, state: State) -> Mapping[str, int]:
        """10 coins across supply, hands and hideouts; every Thief and Gear card of the two decks;
        4 tokens of each stolen-goods type across the Locations and hideouts (none is ever put
        back in the box once set up)."""
        coins = state.supply + sum(state.coins) + sum(state.hq_coins)
        on_table = sum(len(crew) for side in state.crews for crew in side)
        in_hand = sum(len(hand) for hand in state.hands) + sum(len(d) for d in state.discards)
        cards = on_table + in_hand + len(state.thief_deck) + len(state.gear_deck)
        goods = {
            f"{good}_tokens": sum(held[good] for held in (*state.goods, *state.hq_goods))
            for good in Good
        }
        return {
            "coins": coins,
            "total_coins": TOTAL_COINS,
            "thief_and_gear_cards": cards,
            "total_goods_tokens": 3 * TOKENS_PER_TYPE,
            **goods,
        }


CAPER_EUROPE = CaperEuropeGame()
