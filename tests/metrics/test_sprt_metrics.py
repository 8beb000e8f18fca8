"""/metrics carries each SPRT test's live state, read from Redis at scrape time."""

from __future__ import annotations

import math
import shutil
import subprocess

import pytest
import redis

from arena.metrics.server import exposition
from arena.store.sprt import SprtDefinition, SprtStore
from tests.metrics.helpers import samples, value


def test_an_sprt_s_state_is_exported(redis_client: redis.Redis) -> None:
    store = SprtStore(redis_client)
    store.create(SprtDefinition("ab", "search#64", "search#8", elo0=0.0, elo1=1.0))
    store.create(SprtDefinition("fresh", "greedy", "random", normalized=False))
    for number, halves in enumerate((4, 3, 2, 2, 0, 4, 1)):
        assert store.apply_pair("ab", number, halves) is not None
    status = store.status("ab")
    found = samples(exposition(redis_client))
    assert value(found, "arena_sprt_llr", sprt="ab") == pytest.approx(status.llr)
    assert status.llr != 0.0
    lower, upper = status.definition.bounds
    assert value(found, "arena_sprt_llr_lower_bound", sprt="ab") == pytest.approx(lower)
    assert value(found, "arena_sprt_llr_upper_bound", sprt="ab") == pytest.approx(upper)
    assert value(found, "arena_sprt_pairs_total", sprt="ab") == 7
    cells = ("LL", "LD+DL", "WL+DD+LW", "WD+DW", "WW")
    counts = [
        value(found, "arena_sprt_pentanomial_pairs_total", sprt="ab", result=c) for c in cells
    ]
    assert counts == [1, 1, 2, 1, 2]
    elo = status.elo()
    assert elo is not None
    for label, expected in (("elo", elo.elo), ("low", elo.low), ("high", elo.high)):
        assert value(found, "arena_sprt_elo", sprt="ab", estimate=label) == pytest.approx(expected)
    assert value(found, "arena_sprt_state", sprt="ab", state="running") == 1
    assert value(found, "arena_sprt_state", sprt="ab", state="accepted H1") == 0
    info = {"test": "search#64", "base": "search#8", "game": "caper", "model": "normalised"}
    assert value(found, "arena_sprt_info", sprt="ab", **info) == 1
    # a test with no pairs yet: LLR 0, no estimate (NaN), the logistic model named
    assert value(found, "arena_sprt_llr", sprt="fresh") == 0
    assert math.isnan(value(found, "arena_sprt_elo", sprt="fresh", estimate="elo"))
    assert value(found, "arena_sprt_info", sprt="fresh", model="logistic") == 1


def test_a_decided_sprt_shows_its_final_state(redis_client: redis.Redis) -> None:
    store = SprtStore(redis_client)
    store.create(SprtDefinition("won", "greedy", "random", elo0=0.0, elo1=50.0))
    number = 0
    while store.apply_pair("won", number, 4) is not None:
        number += 1
    found = samples(exposition(redis_client))
    assert value(found, "arena_sprt_state", sprt="won", state="accepted H1") == 1
    assert value(found, "arena_sprt_state", sprt="won", state="running") == 0
    assert value(found, "arena_sprt_pairs_total", sprt="won") == number


def test_the_sprt_series_pass_promtool(redis_client: redis.Redis) -> None:
    promtool = shutil.which("promtool")
    if promtool is None:  # a missing tool fails: a skip would hide an unchecked exposition
        pytest.fail("promtool is missing: `make test` installs Debian's prometheus package")
    store = SprtStore(redis_client)
    store.create(SprtDefinition("swept", "greedy", "random", elo0=0.0, elo1=1.0, normalized=False))
    store.create(SprtDefinition("empty", "greedy", "random"))
    for number in range(3):
        store.apply_pair("swept", number, 4)  # logistic Elo +inf: every pair won
    checked = subprocess.run(
        [promtool, "check", "metrics"],
        input=exposition(redis_client),
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout + checked.stderr == b""  # no lint warnings either
