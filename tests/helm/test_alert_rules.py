"""The chart ships the arena's alerting rules as a PrometheusRule: the very rules file a
Prometheus without the operator loads (helm/arena/alerts/arena-rules.yaml), created when the
cluster serves the operator's CRDs or when asked, never otherwise."""

from __future__ import annotations

from typing import Any

import yaml

from tests.helm.chart import (
    CHART,
    FULLNAME,
    Rendered,
    parse_manifests,
    render_for_cluster,
    render_values,
)

RULES_FILE = CHART / "alerts" / "arena-rules.yaml"


def rendered(prometheus_rule: dict[str, Any]) -> Rendered:
    values = {"metrics": {"prometheusRule": prometheus_rule}}
    return Rendered("prometheusRule", parse_manifests(render_values(values)))


def rules_file() -> dict[str, Any]:
    loaded = yaml.safe_load(RULES_FILE.read_text())
    assert isinstance(loaded, dict)
    return loaded


def test_with_the_operator_s_crds_the_rule_is_rendered_by_default() -> None:
    values = {"metrics": {"prometheusRule": {"enabled": "auto"}}}
    operator = ["monitoring.coreos.com/v1"]
    found = Rendered("crds", parse_manifests(render_for_cluster(values, operator)))
    assert found.one("PrometheusRule", FULLNAME)["spec"] == rules_file()
    assert (
        Rendered("keda", parse_manifests(render_for_cluster(values, ["keda.sh/v1alpha1"]))).all(
            "PrometheusRule"
        )
        == []
    )
    off = {"metrics": {"prometheusRule": {"enabled": False}}}
    assert (
        Rendered("off", parse_manifests(render_for_cluster(off, operator))).all("PrometheusRule")
        == []
    )


def test_without_the_operator_s_crds_no_rule_is_rendered() -> None:
    # Helm's offline render sees no monitoring.coreos.com/v1: the default "auto" creates nothing
    # (a cluster without the CRDs would reject the object and fail the install).
    assert rendered({"enabled": "auto"}).all("PrometheusRule") == []
    assert rendered({"enabled": False}).all("PrometheusRule") == []


def test_the_prometheus_rule_is_the_rules_file() -> None:
    rule = rendered({"enabled": True, "labels": {"release": "kps"}}).one("PrometheusRule", FULLNAME)
    assert rule["apiVersion"] == "monitoring.coreos.com/v1"
    assert rule["metadata"]["labels"]["release"] == "kps"
    assert rule["spec"] == rules_file()


def test_a_runbook_base_url_makes_every_runbook_absolute() -> None:
    base = "https://git.example.org/arena/blob/main/"
    rule = rendered({"enabled": True, "runbookBaseUrl": base}).one("PrometheusRule", FULLNAME)
    expected = rules_file()
    for group in expected["groups"]:
        for one in group["rules"]:
            one["annotations"]["runbook_url"] = base + one["annotations"]["runbook_url"]
    assert rule["spec"] == expected
