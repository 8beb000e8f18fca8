"""Each game's own determinisation: what a seat cannot see, dealt anew (for IS-MCTS and bots)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from arena.games.age_of_thieves import observation as thieves_view
from arena.games.age_of_thieves import sampling as thieves_sampling
from arena.games.caper import observation as caper_view
from arena.games.caper_europe import observation as europe_view

# resample(state, seat, rng): `state` with everything `seat` cannot see drawn anew.
RESAMPLE: dict[str, Callable[[Any, int, random.Random], Any]] = {
    "caper": caper_view.resample_hidden,
    "caper-europe": europe_view.resample_hidden,
    "age-of-thieves": thieves_view.resample_hidden,
}
# sample(observation, rng): a whole state consistent with one seat's observation.
SAMPLE: dict[str, Callable[[Any, random.Random], Any]] = {
    "caper": caper_view.sample_state,
    "caper-europe": europe_view.sample_state,
    "age-of-thieves": thieves_sampling.sample_state,
}
