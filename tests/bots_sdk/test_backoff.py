"""The reconnect schedule: grows, caps, jitters within bounds."""

from __future__ import annotations

import random

import pytest

from bots_sdk.backoff import Backoff


def test_the_base_delay_doubles_up_to_the_cap() -> None:
    backoff = Backoff(initial_s=0.5, maximum_s=30.0, multiplier=2.0)
    assert [backoff.base(n) for n in range(8)] == [0.5, 1, 2, 4, 8, 16, 30, 30]


def test_the_cap_holds_after_days_of_retries() -> None:
    assert Backoff(multiplier=16).base(10**6) == 30.0


def test_jitter_stays_within_its_band_and_spreads() -> None:
    backoff = Backoff(initial_s=1.0, maximum_s=8.0, jitter=0.5)
    rng = random.Random(1)
    delays = [backoff.delay(3, rng) for _ in range(1000)]
    assert all(4.0 <= d <= 8.0 for d in delays)
    assert max(delays) - min(delays) > 3.0  # not all bots retry in the same instant


def test_no_jitter_is_the_plain_schedule() -> None:
    backoff = Backoff(jitter=0.0)
    assert backoff.delay(2, random.Random(0)) == backoff.base(2) == 2.0


@pytest.mark.parametrize(
    "kwargs",
    [
        {"initial_s": 0},
        {"initial_s": 5, "maximum_s": 1},
        {"multiplier": 0.5},
        {"jitter": 1.5},
    ],
)
def test_nonsense_settings_are_refused(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        Backoff(**kwargs)
