"""`arena status` knows the alerts of helm/arena/alerts/arena-rules.yaml by the same names and
severities, evaluates only those whose expression reads no range of time, and reads a gateway's
beat with the TTL the gateway sets."""

from __future__ import annotations

import re

from arena.gateway.hub import ONLINE_TTL_S
from arena.services.alert_rules import BY_NAME, RULES
from arena.services.status import GATEWAY_BEAT_TTL_S
from tests.alerts.test_rules import alerts

RANGE = re.compile(r"\[[0-9]+[smh]\]")


def test_the_same_alerts_with_the_same_severities_as_the_rules_file() -> None:
    in_file = {rule["alert"]: rule["labels"]["severity"] for rule in alerts()}
    assert in_file == {rule.name: rule.severity for rule in RULES}


def test_only_alerts_without_a_range_of_time_are_evaluated_from_redis() -> None:
    for rule in alerts():
        known = BY_NAME[rule["alert"]]
        scrape = re.search(r"\bup\b|scrape_|absent\(", rule["expr"]) is not None
        assert known.instant == (not RANGE.search(rule["expr"]) and not scrape), rule["alert"]
        assert known.instant or known.why_not.startswith("Prometheus only")


def test_a_gateway_s_beat_lives_as_long_as_the_gateway_sets_it() -> None:
    assert GATEWAY_BEAT_TTL_S == ONLINE_TTL_S
