"""The arena's alerts as `arena status` knows them: the names and severities of
helm/arena/alerts/arena-rules.yaml (tests/services checks that file agrees with this one), and
which of them a look at Redis can evaluate without Prometheus.

Conditions that hold at one instant (no live worker, a gateway without its beat) are evaluated
by `arena status`; those over a rate or a trend (a backlog growing for 10 minutes, timeouts as a
share of decisions) need the history only Prometheus keeps, and the scrape alerts concern
Prometheus itself: `arena status` lists them as not evaluated. The instant ones have no number
to share with the rules file: each compares a count with zero.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class AlertRule:
    name: str
    severity: str  # "critical" or "warning", the rule's severity label
    instant: bool  # evaluated by `arena status` from one read of Redis
    why_not: str = ""  # why `arena status` cannot, when it does not


_TREND = "Prometheus only: a rate over minutes"
_SCRAPE = "Prometheus only: its own scrapes"

RULES = (
    AlertRule("ArenaNoLiveWorker", "critical", instant=True),
    AlertRule("ArenaQueueBacklogGrowing", "warning", instant=False, why_not=_TREND),
    AlertRule("ArenaJobsFailing", "warning", instant=False, why_not=_TREND),
    AlertRule("ArenaGatewayDown", "warning", instant=True),
    AlertRule("ArenaNoGatewayServing", "critical", instant=True),
    AlertRule("ArenaRedisUnreachable", "critical", instant=True),
    AlertRule("ArenaDecisionTimeouts", "warning", instant=False, why_not=_TREND),
    AlertRule("ArenaVoidedGames", "warning", instant=False, why_not=_TREND),
    AlertRule("ArenaEventIdle", "warning", instant=True),
    AlertRule("ArenaSprtStalled", "warning", instant=False, why_not=_TREND),
    AlertRule("ArenaLadderNotRating", "warning", instant=False, why_not=_TREND),
    AlertRule("ArenaMetricsScrapeFailing", "warning", instant=False, why_not=_SCRAPE),
    AlertRule("ArenaMetricsAbsent", "warning", instant=False, why_not=_SCRAPE),
    AlertRule("ArenaMetricsScrapeSlow", "warning", instant=False, why_not=_SCRAPE),
)
BY_NAME = {rule.name: rule for rule in RULES}

RUNBOOK = "docs/operations.md#{anchor}"


def runbook(name: str) -> str:
    return RUNBOOK.format(anchor=name.lower())
