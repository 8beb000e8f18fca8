"""The `Game` object for Caper: Europe: the arena-facing face of the rules modules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arena.games.api import Config, GameError, Result
from arena.games.caper_common.coins import TOTAL_COINS
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


class CaperEuropeGame:
    """Caper: Europe, the second edition, for two players (`specs/caper-europe.md`)."""

    id = "caper-europe"
    name = "Caper: Europe"
    rules_version = 1  # bump whenever any behaviour changes: ratings are keyed by it
    num_players = 2

    def create(self, config: Config, seed: int) -> State:
        return rules.create(config, seed)

    def current_player(self, state: State) -> int | None:
        return None if state.to_move < 0 else state.to_move

    def legal_actions(self, state: State) -> Sequence[Action]:
        return rules.legal_actions(state)

    def apply(self, state: State, action: Action, seat: int | None = None) -> State:
        return rules.apply(state, action, seat)

    def is_terminal(self, state: State) -> bool:
        return state.to_move < 0

    def result(self, state: State) -> Result:
        if state.to_move >= 0:
            raise GameError("the game is not over yet: no result to give")
        return scoring.result(state)

    def observation(self, state: State, seat: int) -> EuropeObservation:
        if seat not in (0, 1):
            raise GameError(f"Caper: Europe has seats 0 and 1, not {seat}")
        return observation.observe(state, seat)

    def action_text(self, action: Action) -> str:
        return action_text(action)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def render(self, state: State, seat: int | None = None) -> str:
        obs = observation.observe(state, 0 if seat is None else seat)
        if seat is not None:
            return render.render(obs)
        hands = tuple(tuple(card.id for card in hand) for hand in state.hands)
        return render.render(obs, omniscient_hands=hands)

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
