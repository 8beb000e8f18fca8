"""Every game and variant as a PettingZoo AEC environment (`env("caper", city="rome")`).

Agents are `seat_0` ... `seat_{n-1}`, one per seat of the game. An observation is a dict:
`observation`, the seat's engine observation hashed into a float32 vector (`features`), and
`action_mask`, 1 for each legal action of the fixed table (`actions`) when the agent is to act.
The action space is `Discrete(table size)`. The engine owns all randomness: `reset(seed=s)` deals
game `s` exactly as the arena's referee would; `reset()` without a seed draws the next game from
the last seed given. Rewards come once, at the end: +1 for each winning seat, -1 for the others,
0 for all in a drawn game.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from arena.games.api import GameError
from arena.research.actions import action_table
from arena.research.features import SIZE, FeatureHasher
from arena.research.variants import returns, seat_count, variant

ObsDict = dict[str, np.ndarray[Any, Any]]


class ArenaAECEnv(AECEnv):
    """One variant of one game; `render_mode="ansi"` renders the whole table (every hand)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "caper_arena_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(self, game_id: str = "caper", render_mode: str | None = None, **config: Any):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.variant = variant(game_id, **config)
        self.game = self.variant.game
        self.table = action_table(game_id)
        self.hasher = FeatureHasher(SIZE)
        seats = seat_count(self.game, self.variant.settings)
        self.possible_agents = [f"seat_{seat}" for seat in range(seats)]
        self.agents = list(self.possible_agents)
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.table.size,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = {a: spaces.Discrete(self.table.size) for a in self.possible_agents}
        self._seeds = random.Random()
        self.state: Any = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.randrange(2**31)
        self.state = self.game.create(self.variant.settings, game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._agent_to_move()

    def _agent_to_move(self) -> str:
        seat = self.game.current_player(self.state)
        return self.possible_agents[0 if seat is None else seat]

    def seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observation_json(self, agent: str) -> dict[str, Any]:
        """What the engine lets `agent`'s seat see, as JSON: the only input of `observe`."""
        return self.game.observation(self.state, self.seat(agent)).to_json()

    def observe(self, agent: str) -> ObsDict:
        mask = np.zeros(self.table.size, dtype=np.int8)
        if agent == self.agent_selection and not self.game.is_terminal(self.state):
            mask[self.table.indices(self.game.legal_actions(self.state))] = 1
        return {
            "observation": self.hasher.encode(self.observation_json(agent)),
            "action_mask": mask,
        }

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.state = self.game.apply(self.state, self._legal(action), self.seat(agent))
        self._cumulative_rewards[agent] = 0.0
        if self.game.is_terminal(self.state):
            payout = returns(self.game, self.variant.settings, self.game.result(self.state))
            self.rewards = dict(zip(self.possible_agents, payout, strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self._agent_to_move()
        self._accumulate_rewards()

    def _legal(self, action: Any) -> Any:
        """The engine action numbered `action`; `ValueError` saying why when it is not legal."""
        if isinstance(action, np.integer):
            action = int(action)
        if not isinstance(action, int) or isinstance(action, bool):
            raise ValueError(f"an action is an int in 0-{self.table.size - 1}, not {action!r}")
        chosen = self.table.action(action)
        legal = self.game.legal_actions(self.state)
        if chosen not in legal:
            text = self.game.action_text(chosen)
            raise ValueError(f"action {action} ({text}) is not legal now: see the action_mask")
        return chosen

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        return self.game.render(self.state)

    def close(self) -> None:
        pass


def raw_env(game_id: str = "caper", render_mode: str | None = None, **config: Any) -> ArenaAECEnv:
    return ArenaAECEnv(game_id, render_mode, **config)


def env(game_id: str = "caper", render_mode: str | None = None, **config: Any) -> Any:
    """`game_id` set up with `config` (city, players...), wrapped so that calls out of order fail
    with PettingZoo's message. `ConfigError` for an unknown game or setting."""
    return OrderEnforcingWrapper(raw_env(game_id, render_mode, **config))


__all__ = ["ArenaAECEnv", "GameError", "env", "raw_env"]
