"""Small statistics for reports: means with normal-approximation confidence intervals."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Estimate:
    mean: float
    half_width: float  # of the 95 % confidence interval
    n: int

    def __str__(self) -> str:
        return f"{self.mean:.2f} ± {self.half_width:.2f}"


def mean_ci(values: Sequence[float]) -> Estimate:
    """The mean and the half-width of its 95 % interval (0 for fewer than two values)."""
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, 0)
    mean = sum(values) / n
    if n == 1:
        return Estimate(mean, 0.0, 1)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return Estimate(mean, Z95 * math.sqrt(variance / n), n)


@dataclass(frozen=True, slots=True)
class Proportion:
    value: float
    low: float  # of the 95 % Wilson score interval
    high: float
    n: int

    def __str__(self) -> str:
        return f"{self.value:.0%} [{self.low:.0%}, {self.high:.0%}]"


def proportion_ci(successes: float, n: int) -> Proportion:
    """A proportion with its 95 % Wilson score interval (sound near 0 % and 100 % too)."""
    if n == 0:
        return Proportion(math.nan, math.nan, math.nan, 0)
    p = successes / n
    denominator = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denominator
    return Proportion(p, max(0.0, centre - half), min(1.0, centre + half), n)


def ranks(keys: Sequence[Any]) -> tuple[float, ...]:
    """Places by `keys`, the highest first (1); equal keys share the mean of the places they
    span (two level for first: 1.5 each)."""
    ordered = sorted(keys, reverse=True)
    return tuple(ordered.index(key) + 1 + (ordered.count(key) - 1) / 2 for key in keys)
