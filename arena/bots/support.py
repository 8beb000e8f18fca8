"""What the built-in bots need from a game beyond the `Game` API: a sampler of hidden states that
fit an observation, the engine's fast paths, and the score "if the game ended now".

Bots only see observations, so a game's support is found by the observation's type, and inside a
search by the sampled state's type. Both Caper editions are supported.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from arena.games.caper import observation as caper_observation
from arena.games.caper import rules as caper_rules
from arena.games.caper import scoring as caper_scoring
from arena.games.caper import state as caper_state
from arena.games.caper_europe import observation as europe_observation
from arena.games.caper_europe import rules as europe_rules
from arena.games.caper_europe import scoring as europe_scoring
from arena.games.caper_europe import state as europe_state
from arena.games.caper_europe.catalogue import CATALOGUE as EUROPE_CARDS


@dataclass(frozen=True, slots=True)
class GameSupport:
    observation_type: type[Any]
    state_type: type[Any]
    sample_state: Callable[[Any, random.Random], Any]
    legal_actions: Callable[[Any], list[Any]]  # listing primes the engine's validation cache
    apply: Callable[[Any, Any], Any]
    totals: Callable[[Any], tuple[int, int]]  # both sides' points if the game ended now
    # What a seat plays for, from `totals`: its side's lead (the Snitch: its lead to win, V5).
    margin: Callable[[Any, tuple[int, int], int], float]
    # Actions with equal keys leave equal scores and coins, so a greedy look-ahead scores one.
    effect_key: Callable[[Any, Any], Hashable]


def _caper_effect_key(state: caper_state.State, action: caper_state.Action) -> Hashable:
    """Every discard gains the same coin, and scoring counts a crew by Location, so which Thief
    takes a Gear only matters when it makes that Thief full (about a third fewer scorings)."""
    kind = action.kind
    if kind is caper_state.ActionKind.DISCARD:
        return kind
    if kind is caper_state.ActionKind.GEAR or kind is caper_state.ActionKind.REPLAY:
        stack = state.board[state.to_move][action.location][action.thief]
        fills = len(stack) == caper_state.MAX_GEAR_PER_THIEF
        return (kind, action.card, action.location, action.target, fills)
    return action


def _two_sided_margin(state: Any, totals: tuple[int, int], seat: int) -> float:
    return totals[seat] - totals[1 - seat]


def _caper_totals(state: caper_state.State) -> tuple[int, int]:
    return caper_scoring.team_totals(state, caper_scoring.score(state))


def _caper_margin(state: caper_state.State, totals: tuple[int, int], seat: int) -> float:
    """A Lookout plays for its Mastermind's team (seat - 2); the Snitch for its score over the
    higher Mastermind's, the margin it wins by."""
    if state.players == 3 and seat == caper_state.SNITCH:
        return caper_scoring.snitch_score(totals) - max(totals)
    side = seat % 2
    return totals[side] - totals[1 - side]


def _europe_effect_key(state: europe_state.State, action: europe_state.Action) -> Hashable:
    """A discard gains a coin and counts in the discard area by colour only; anything else may
    change what is topmost (burns, eyes), so it is scored on its own."""
    if action.kind is europe_state.ActionKind.DISCARD:
        return (action.kind, EUROPE_CARDS[action.card].colour)
    return action


CAPER = GameSupport(
    observation_type=caper_observation.CaperObservation,
    state_type=caper_state.State,
    sample_state=caper_observation.sample_state,
    legal_actions=caper_rules.legal_actions,
    apply=caper_rules.apply,
    totals=_caper_totals,
    margin=_caper_margin,
    effect_key=_caper_effect_key,
)
EUROPE = GameSupport(
    observation_type=europe_observation.EuropeObservation,
    state_type=europe_state.State,
    sample_state=europe_observation.sample_state,
    legal_actions=europe_rules.legal_actions,
    apply=europe_rules.apply,
    totals=lambda state: europe_scoring.score(state).totals,
    margin=_two_sided_margin,
    effect_key=_europe_effect_key,
)
_BY_OBSERVATION = {support.observation_type: support for support in (CAPER, EUROPE)}
_BY_STATE = {support.state_type: support for support in (CAPER, EUROPE)}


def for_observation(observation: object) -> GameSupport:
    """The support of the game `observation` belongs to; TypeError for games bots cannot play."""
    support = _BY_OBSERVATION.get(type(observation))
    if support is None:
        raise TypeError(f"built-in bots play Caper only, got {type(observation).__name__}")
    return support


def for_state(state: object) -> GameSupport:
    support = _BY_STATE.get(type(state))
    if support is None:
        raise TypeError(f"built-in bots play Caper only, got a {type(state).__name__}")
    return support
