"""The `Game` object for first-edition Caper: the arena-facing face of the rules modules."""

from __future__ import annotations

from collections.abc import Mapping

from arena.games.api import Config, SeatRole
from arena.games.caper import observation, render, rules, scoring, variants
from arena.games.caper.cards import Card
from arena.games.caper.observation import CaperObservation
from arena.games.caper.state import (
    SNITCH,
    TOTAL_COINS,
    Action,
    State,
    action_text,
    parse_action,
)
from arena.games.caper_common.game import MASTERMINDS, CaperFamilyGame, Edition, Hands

SEAT_ROLES = {  # by number of players (section 12): seats 0 and 1 are always the Masterminds
    2: MASTERMINDS,
    3: (*MASTERMINDS, SeatRole("snitch")),
    4: (*MASTERMINDS, SeatRole("lookout", "cream"), SeatRole("lookout", "mint")),
}


def _hands(state: State) -> Hands:
    """Every seat's hand: the Masterminds', then the Snitch's two drawn cards or the Lookouts'."""
    hands: tuple[tuple[Card, ...], ...] = state.hands
    if state.players == 3:
        hands = (*hands, state.snitch_deck[:2] if state.to_move == SNITCH else ())
    elif state.players == 4:
        hands = (*hands, *state.lookout_hands)
    return tuple(tuple(card.name for card in hand) for hand in hands)


def _seats(state: State) -> int:
    return state.players


class CaperGame(CaperFamilyGame[State, Action, CaperObservation]):
    """First-edition Caper for two players, or three or four (section 12) with `{"players": n}`
    (`docs/rules/caper.md`)."""

    id = "caper"
    name = "Caper"
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
        _seats,
        variants.seen_text,
    )

    def seat_roles(self, config: Config) -> tuple[SeatRole, ...]:
        """The seats of `config`'s number of players; `ConfigError` for a bad number."""
        return SEAT_ROLES[variants.players_setting(config.get("players", 2))]

    def conserved(self, state: State) -> Mapping[str, int]:
        """10 coins across supply, hands and discard areas; every card of the three decks."""
        coins = state.supply + sum(state.coins) + sum(state.laundered)
        on_table = sum(len(stack) for side in state.board for crew in side for stack in crew)
        in_hand = sum(len(hand) for hand in (*state.hands, *state.lookout_hands))
        in_hand += sum(len(d) for d in state.discards) + len(state.snitch_deck)
        cards = on_table + in_hand + len(state.thief_deck) + len(state.gear_deck)
        return {"coins": coins, "total_coins": TOTAL_COINS, "thief_and_gear_cards": cards}


CAPER = CaperGame()
