"""The per-bot series of the ladders, and a fast text rendering of them.

With thousands of bots exported, prometheus_client's generic renderer (validating and escaping
every label of every sample) takes most of a scrape. These families all have the same four
labels, so /metrics renders them here with the label prefix built once per ladder; the collector's
`collect()` still yields them as ordinary metric families, and a test checks both agree.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.utils import floatToGoString

from arena.ratings.weng_lin import ORDINAL_Z
from arena.store.ladders import LadderDefinition
from arena.store.ratings.records import Summary

LADDER_LABELS = ("ladder", "game", "rules_version")
BOT_LABELS = (*LADDER_LABELS, "bot")


@dataclass(frozen=True, slots=True)
class BotFamily:
    name: str  # as exposed: counters end in _total
    kind: str  # "gauge" or "counter"
    help: str
    value: Callable[[Summary, float], float]  # from the summary and the provisional threshold
    # Elo and Glicko-2 rate two-sided results only: a ladder of tables (3 sides) has none, and
    # exporting their untouched starting values would chart a rating nobody earned.
    two_sided_only: bool = False

    def exported_for(self, ladder: LadderDefinition) -> bool:
        return not self.two_sided_only or ladder.sides == 2


BOT_FAMILIES = (
    BotFamily(
        "arena_elo_rating",
        "gauge",
        "Elo rating of a bot on a two-sided ladder.",
        lambda s, _: s[0],
        two_sided_only=True,
    ),
    BotFamily(
        "arena_glicko2_rating",
        "gauge",
        "Glicko-2 rating of a bot on a two-sided ladder.",
        lambda s, _: s[1],
        two_sided_only=True,
    ),
    BotFamily(
        "arena_glicko2_deviation",
        "gauge",
        "Glicko-2 rating deviation (uncertainty) of a bot on a two-sided ladder.",
        lambda s, _: s[2],
        two_sided_only=True,
    ),
    BotFamily(
        "arena_rating_provisional",
        "gauge",
        "1 while the bot's Glicko-2 deviation is above the ladder's provisional threshold.",
        lambda s, threshold: 1.0 if s[2] > threshold else 0.0,
        two_sided_only=True,
    ),
    BotFamily(
        "arena_weng_lin_mu",
        "gauge",
        "Weng-Lin (OpenSkill, Plackett-Luce) mean skill of a bot on a ladder.",
        lambda s, _: s[4],
    ),
    BotFamily(
        "arena_weng_lin_sigma",
        "gauge",
        "Weng-Lin skill uncertainty (standard deviation) of a bot on a ladder.",
        lambda s, _: s[5],
    ),
    BotFamily(
        "arena_weng_lin_ordinal",
        "gauge",
        "Weng-Lin ordinal (mu - 3 sigma), the conservative skill leaderboards sort by.",
        lambda s, _: s[4] - ORDINAL_Z * s[5],
    ),
    BotFamily(
        "arena_bot_rated_results_total",
        "counter",
        "Rated results of a bot on a ladder.",
        lambda s, _: float(s[3]),
    ),
)

Tops = Sequence[tuple[LadderDefinition, Sequence[tuple[str, Summary]]]]


def ladder_labels(ladder: LadderDefinition) -> list[str]:
    return [ladder.ref.name, ladder.ref.game, str(ladder.ref.rules_version)]


def bot_families(tops: Tops) -> list[Metric]:
    """The per-bot series as prometheus_client metric families."""
    families: list[Metric] = []
    for spec in BOT_FAMILIES:
        family: CounterMetricFamily | GaugeMetricFamily
        if spec.kind == "counter":
            family = CounterMetricFamily(spec.name, spec.help, labels=BOT_LABELS)
        else:
            family = GaugeMetricFamily(spec.name, spec.help, labels=BOT_LABELS)
        for ladder, top in tops:
            if not spec.exported_for(ladder):
                continue
            base, threshold = ladder_labels(ladder), ladder.params.provisional_rd
            for bot, summary in top:
                family.add_metric([*base, bot], spec.value(summary, threshold))
        families.append(family)
    return families


def _number(value: float) -> str:
    """`floatToGoString`, whose answer is `repr` for any finite number below 1e6 (Go writes
    exponents from 7 integer digits on): the common case without its function calls."""
    if -math.inf < value < 1e6:
        return repr(value)
    return str(floatToGoString(value))  # type: ignore[no-untyped-call]  # untyped upstream


def _escape(value: str) -> str:
    """A label value as the text format wants it (the same escapes as prometheus_client)."""
    return value.replace("\\", r"\\").replace("\n", r"\n").replace('"', r"\"")


def bot_exposition(tops: Tops) -> str:
    """The same families in the Prometheus text format (version 0.0.4)."""
    lines: list[str] = []
    # Each bot's label and the text between it and the value, once for all the families.
    escaped = [[f'{_escape(bot)}"}} ' for bot, _ in top] for _, top in tops]
    for spec in BOT_FAMILIES:
        lines.append(f"# HELP {spec.name} {spec.help}\n# TYPE {spec.name} {spec.kind}\n")
        for (ladder, top), bots in zip(tops, escaped, strict=True):
            if not spec.exported_for(ladder):
                continue
            name, game, version = (_escape(label) for label in ladder_labels(ladder))
            prefix = f'{spec.name}{{ladder="{name}",game="{game}",rules_version="{version}",bot="'
            threshold, value = ladder.params.provisional_rd, spec.value
            lines.extend(
                f"{prefix}{bot}{_number(value(summary, threshold))}\n"
                for bot, (_, summary) in zip(bots, top, strict=True)
            )
    return "".join(lines)
