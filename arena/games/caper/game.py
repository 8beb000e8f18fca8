"""The `Game` object for first-edition Caper: the arena-facing face of the rules modules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arena.games.api import Config, GameError, Result
from arena.games.caper import observation, render, rules, scoring
from arena.games.caper.observation import CaperObservation
from arena.games.caper.state import TOTAL_COINS, Action, State, action_text, parse_action


class CaperGame:
    """First-edition Caper for two players (`specs/caper-classic.md`)."""

    id = "caper"
    name = "Caper"
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

    def observation(self, state: State, seat: int) -> CaperObservation:
        if seat not in (0, 1):
            raise GameError(f"Caper has seats 0 and 1, not {seat}")
        return observation.observe(state, seat)

    def action_text(self, action: Action) -> str:
        return action_text(action)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def render(self, state: State, seat: int | None = None) -> str:
        obs = observation.observe(state, 0 if seat is None else seat)
        if seat is not None:
            return render.render(obs)
        hands = tuple(tuple(card.name for card in hand) for hand in state.hands)
        return render.render(obs, omniscient_hands=hands)

    def conserved(self, state: State) -> Mapping[str, int]:
        """10 coins across supply, hands and discard areas; every card of the three decks."""
        coins = state.supply + sum(state.coins) + sum(state.laundered)
        on_table = sum(len(stack) for side in state.board for crew in side for stack in crew)
        in_hand = sum(len(hand) for hand in state.hands) + sum(len(d) for d in state.discards)
        cards = on_table + in_hand + len(state.thief_deck) + len(state.gear_deck)
        return {"coins": coins, "total_coins": TOTAL_COINS, "thief_and_gear_cards": cards}


CAPER = CaperGame()
