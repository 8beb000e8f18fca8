"""A seat's observation as a fixed-length vector, by feature hashing its JSON form.

Every game's `observation(state, seat).to_json()` is a nested mapping of what the seat may know,
of a shape that varies with the game and the state. Each leaf becomes a named feature (its path,
and for a text its value), hashed into a vector of fixed length: one encoder for all games, and
nothing reaches the vector that the observation does not hold. Texts inside lists also count
under their list's name without the position, so "card X is in my hand" is one feature.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

SIZE = 8192  # features per observation: large enough that collisions are rare in every game
Vector = npt.NDArray[np.float32]


class FeatureHasher:
    """Observation JSON -> float32 vector of `size`; caches the index of every name it meets."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._slots: dict[str, int] = {}

    def encode(self, observation: Mapping[str, Any]) -> Vector:
        vector = np.zeros(self.size, dtype=np.float32)
        self._walk(observation, "", vector)
        return vector

    def _slot(self, name: str) -> int:
        slot = self._slots.get(name)
        if slot is None:
            slot = self._slots[name] = zlib.crc32(name.encode()) % self.size
        return slot

    def _walk(self, value: Any, path: str, out: Vector) -> None:
        if isinstance(value, Mapping):
            for key, item in value.items():
                self._walk(item, f"{path}/{key}", out)
        elif isinstance(value, list | tuple):
            out[self._slot(path + "#len")] += len(value)
            for position, item in enumerate(value):
                if isinstance(item, str):
                    out[self._slot(f"{path}[*]={item}")] += 1.0
                self._walk(item, f"{path}/{position}", out)
        elif isinstance(value, str):
            out[self._slot(f"{path}={value}")] += 1.0
        elif value is None:
            out[self._slot(path + "=null")] += 1.0
        else:  # bool, int or float
            out[self._slot(path)] += float(value)
