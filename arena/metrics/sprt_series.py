"""SPRT tests' live state for /metrics: LLR and its bounds, pairs, pentanomial counts, the Elo
estimate with its 95% interval, and the state, one series set per test (labelled `sprt`, the
test's name: organisers start a handful, not thousands; nothing is labelled by pair or job).

Read at scrape time from each test's one hash (`arena.store.sprt`), one read a test; the Elo
estimate is computed here from the counts, in the test's own Elo model (`model` label of
arena_sprt_info).
"""

from __future__ import annotations

import math

import redis
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric

from arena.store.sprt import SprtStore, State

CELLS = ("LL", "LD+DL", "WL+DD+LW", "WD+DW", "WW")  # fishtest's pentanomial order


def sprt_families(client: redis.Redis) -> list[Metric]:
    store = SprtStore(client)
    statuses = store.all()
    info = GaugeMetricFamily(
        "arena_sprt_info",
        "1 per SPRT test: its bots, game and Elo model (normalised or logistic).",
        labels=["sprt", "test", "base", "game", "model"],
    )
    state = GaugeMetricFamily(
        "arena_sprt_state",
        "1 for the test's current state, 0 for the others.",
        labels=["sprt", "state"],
    )
    llr = GaugeMetricFamily("arena_sprt_llr", "The test's log-likelihood ratio.", labels=["sprt"])
    lower = GaugeMetricFamily(
        "arena_sprt_llr_lower_bound", "LLR at or below which H0 is accepted.", labels=["sprt"]
    )
    upper = GaugeMetricFamily(
        "arena_sprt_llr_upper_bound", "LLR at or above which H1 is accepted.", labels=["sprt"]
    )
    pairs = CounterMetricFamily("arena_sprt_pairs", "Pairs counted by the test.", labels=["sprt"])
    cells = CounterMetricFamily(
        "arena_sprt_pentanomial_pairs",
        "Pairs counted, by the test bot's pair result (LL, LD+DL, WL+DD+LW, WD+DW, WW).",
        labels=["sprt", "result"],
    )
    elo = GaugeMetricFamily(
        "arena_sprt_elo",
        "The test bot's Elo over the base bot (the test's model), with its 95% interval; "
        "NaN until the pairs give one.",
        labels=["sprt", "estimate"],
    )
    for status in statuses:
        d = status.definition
        info.add_metric([d.name, d.test, d.base, d.game, d.model.split()[0]], 1.0)
        for one in State:
            state.add_metric([d.name, one.value], float(one is status.state))
        llr.add_metric([d.name], status.llr)
        low, high = d.bounds
        lower.add_metric([d.name], low)
        upper.add_metric([d.name], high)
        pairs.add_metric([d.name], float(status.pairs))
        for cell, count in zip(CELLS, status.counts, strict=True):
            cells.add_metric([d.name, cell], float(count))
        interval = status.elo()
        values = (interval.elo, interval.low, interval.high) if interval else (math.nan,) * 3
        for label, value in zip(("elo", "low", "high"), values, strict=True):
            elo.add_metric([d.name, label], value)
    return [info, state, llr, lower, upper, pairs, cells, elo]
