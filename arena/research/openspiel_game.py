"""Every game as an OpenSpiel Python game: `register()`, then `pyspiel.load_game(...)`.

Names: `arena_caper(city=rome,players=3)`, `arena_caper_europe(city=london)`,
`arena_age_of_thieves(players=4)`. The engine draws all of a game's randomness from its seed
when the game is created, so the game opens with one chance node choosing the deal: a seed
among `deals` (65,536 unless set), each equally likely; after it, play is deterministic. Actions
are numbered by the game's fixed table (`arena.research.actions`). A seat's observation and
information state are its engine observation only: the string is its JSON, the tensor its
feature-hashed vector. The engine's view already holds everything the seat remembers, so the
two coincide. Returns, at the end only: +1 for each winning seat, -1 for the others, 0 in a
draw (a general-sum game, with teams and everyone-loses endings). `resample_from_infostate`
deals anew what the player cannot see (the engine's own resampler), for IS-MCTS. A state
serialises as its deal and actions (a state sampled for one seat cannot be serialised).
"""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import numpy as np
import pyspiel

from arena.research.actions import action_table
from arena.research.features import SIZE, FeatureHasher
from arena.research.hidden import RESAMPLE
from arena.research.variants import Variant, returns, seat_count, variant

DEALS = 65_536  # chance outcomes of the opening deal; a parameter
MAX_GAME_LENGTH = {"caper": 200, "caper-europe": 200, "age-of-thieves": 3000}  # decisions
NAMES = {
    "caper": "arena_caper",
    "caper-europe": "arena_caper_europe",
    "age-of-thieves": "arena_age_of_thieves",
}
PARAMETERS: dict[str, dict[str, str | int]] = {
    "caper": {"city": "paris", "players": 2, "deals": DEALS},
    "caper-europe": {"city": "paris", "deals": DEALS},
    "age-of-thieves": {"players": 2, "deals": DEALS},
}


def _game_type(game_id: str) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=NAMES[game_id],
        long_name=f"Caper Arena: {variant(game_id).game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4 if "players" in PARAMETERS[game_id] else 2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=PARAMETERS[game_id],
    )


class ArenaGame(pyspiel.Game):
    """One variant of one arena game, set up from OpenSpiel parameters."""

    def __init__(self, game_id: str, params: dict[str, Any] | None = None) -> None:
        settings = PARAMETERS[game_id] | dict(params or {})
        self.deals = int(settings.pop("deals"))
        if self.deals < 1:
            raise ValueError(f"deals must be at least 1, not {self.deals}")
        self.variant: Variant = variant(game_id, **settings)
        self.table = action_table(game_id)
        self.seats = seat_count(self.variant.game, self.variant.settings)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.table.size,
            max_chance_outcomes=self.deals,
            num_players=self.seats,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=MAX_GAME_LENGTH[game_id],
        )
        super().__init__(_game_type(game_id), info, settings | {"deals": self.deals})

    def new_initial_state(self) -> ArenaState:
        return ArenaState(self)

    def state_from_engine(self, engine_state: Any) -> ArenaState:
        """A state past the deal holding `engine_state` (e.g. one sampled for a bot)."""
        state = ArenaState(self)
        state.engine = engine_state
        return state

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> ArenaObserver:
        return ArenaObserver(self, iig_obs_type, params)


class _Engine:
    """The engine state and how it was reached: the deal and the actions since (None for a
    state sampled for a seat). OpenSpiel clones a Python state by deep-copying its attributes:
    an engine state is immutable, so this is shared, not copied. It serialises (pickles) as
    the deal and the actions, and is replayed on loading."""

    __slots__ = ("actions", "deal", "value")

    def __init__(self, value: Any, deal: int | None, actions: tuple[int, ...] = ()) -> None:
        self.value, self.deal, self.actions = value, deal, actions

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        if self.deal is None and self.value is not None:
            raise pickle.PicklingError("a state sampled for one seat cannot be serialised")
        return (_Replay, (self.deal, self.actions))


class _Replay(_Engine):
    """A loaded `_Engine`: the state applies the deal and actions again when first asked."""

    def __init__(self, deal: int | None, actions: tuple[int, ...]) -> None:
        super().__init__(None, deal, actions)


class ArenaState(pyspiel.State):
    """The engine state after the deal; None at the opening chance node."""

    def __init__(self, game: ArenaGame) -> None:
        super().__init__(game)
        self._engine = _Engine(None, None)

    @property
    def arena(self) -> ArenaGame:
        game: ArenaGame = self.get_game()  # the Python object itself, never a copy
        return game

    @property
    def engine(self) -> Any:
        if type(self._engine) is _Replay:
            self._engine = self._replayed(self._engine)
        return self._engine.value

    @engine.setter
    def engine(self, value: Any) -> None:
        self._engine = _Engine(value, None)

    def _replayed(self, loaded: _Engine) -> _Engine:
        if loaded.deal is None:
            return _Engine(None, None)
        game, table = self.arena.variant.game, self.arena.table
        value = game.create(self.arena.variant.settings, loaded.deal)
        for action in loaded.actions:
            value = game.apply(value, table.action(action))
        return _Engine(value, loaded.deal, loaded.actions)

    def current_player(self) -> int:
        if self.engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self.arena.variant.game.current_player(self.engine)
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        legal = self.arena.variant.game.legal_actions(self.engine)
        return sorted(self.arena.table.indices(legal))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(deal, 1.0 / self.arena.deals) for deal in range(self.arena.deals)]

    def _apply_action(self, action: int) -> None:
        game, now = self.arena.variant.game, self.engine
        if now is None:
            self._engine = _Engine(game.create(self.arena.variant.settings, action), action)
            return
        after = game.apply(now, self.arena.table.action(action))
        past = self._engine
        actions = () if past.deal is None else (*past.actions, action)
        self._engine = _Engine(after, past.deal, actions)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return self.arena.variant.game.action_text(self.arena.table.action(action))

    def is_terminal(self) -> bool:
        return self.engine is not None and self.arena.variant.game.is_terminal(self.engine)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.arena.seats
        game = self.arena.variant.game
        return returns(game, self.arena.variant.settings, game.result(self.engine))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ArenaState:
        """This state with everything `player_id` cannot see dealt anew."""
        if self.engine is None:
            return self.arena.new_initial_state()
        rng = random.Random(int(probability_sampler() * 2**53))
        resample = RESAMPLE[self.arena.variant.game_id]
        return self.arena.state_from_engine(resample(self.engine, player_id, rng))

    def __str__(self) -> str:
        if self.engine is None:
            return "before the deal"
        return self.arena.variant.game.render(self.engine)


class ArenaObserver:
    """A seat's engine observation: JSON for the strings, feature-hashed for the tensor. Only the
    seat's own view exists (private and public parts together), with or without perfect recall:
    the engine's view is already the seat's whole memory."""

    def __init__(
        self, game: ArenaGame, iig_obs_type: pyspiel.IIGObservationType | None, params: Any
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        private = getattr(iig_obs_type, "private_info", pyspiel.PrivateInfoType.SINGLE_PLAYER)
        if private != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("only a seat's own view is available: private_info=SINGLE_PLAYER")
        self.game = game
        self.hasher = FeatureHasher(SIZE)
        self.tensor = np.zeros(SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def _view(self, state: ArenaState, player: int) -> dict[str, Any] | None:
        if state.engine is None:
            return None  # nothing is seen before the deal
        return dict(self.game.variant.game.observation(state.engine, player).to_json())

    def set_from(self, state: ArenaState, player: int) -> None:
        view = self._view(state, player)
        self.tensor[:] = 0.0 if view is None else self.hasher.encode(view)

    def string_from(self, state: ArenaState, player: int) -> str:
        view = self._view(state, player)
        return "" if view is None else json.dumps(view, sort_keys=True, separators=(",", ":"))


# One class a game, registered as pyspiel's factory. (A closure as the factory aborts the
# interpreter at exit: pyspiel releases it after Python has finalised.)
class CaperGame(ArenaGame):
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__("caper", params)


class CaperEuropeGame(ArenaGame):
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__("caper-europe", params)


class AgeOfThievesGame(ArenaGame):
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__("age-of-thieves", params)


FACTORIES = {
    "caper": CaperGame,
    "caper-europe": CaperEuropeGame,
    "age-of-thieves": AgeOfThievesGame,
}


def register() -> list[str]:
    """Register every arena game with pyspiel (once); their short names."""
    known = set(pyspiel.registered_names())
    for game_id, name in NAMES.items():
        if name not in known:
            pyspiel.register_game(_game_type(game_id), FACTORIES[game_id])
    return list(NAMES.values())
