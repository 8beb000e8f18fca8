"""The fast rendering of per-bot values writes numbers exactly as prometheus_client does."""

from __future__ import annotations

import math
import random

from prometheus_client.utils import floatToGoString

from arena.metrics.bot_series import _number


def test_numbers_render_as_prometheus_client_renders_them() -> None:
    edges = [0.0, -0.0, 1.0, 1e-5, 1e-300, 999_999.9999, 1e6, 1_234_567.0, 1e22, -1e7, 12.0]
    edges += [math.inf, -math.inf, math.nan, 5e-324, 1500.0000000000002]
    rng = random.Random(4)
    edges += [rng.uniform(-2e6, 2e6) for _ in range(2_000)]
    edges += [10.0 ** rng.uniform(-8, 9) for _ in range(2_000)]
    for value in edges:
        assert _number(value) == floatToGoString(value), value  # type: ignore[no-untyped-call]
