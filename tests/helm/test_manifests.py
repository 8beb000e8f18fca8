"""helm/arena lints cleanly and renders valid Kubernetes objects for the default values and for
every file in helm/arena/ci/: the built-in kinds against the Kubernetes API schemas (the ones
kubernetes-validate bundles), the custom resources structurally."""

from __future__ import annotations

import re
from typing import Any

import helm_python as helm
import kubernetes_validate  # type: ignore[import-untyped]  # ships no type information
import pytest

from tests.helm.chart import CASES, CHART, CI_VALUES, Doc, case_values, render_case

# The oldest Kubernetes the chart supports (Chart.yaml kubeVersion: native gRPC probes are GA
# from 1.27) and the newest whose schemas kubernetes-validate bundles.
KUBE_VERSIONS = ["1.27.0", kubernetes_validate.latest_version()]
CUSTOM_KINDS = {
    "ServiceMonitor": "monitoring.coreos.com/v1",
    "PrometheusRule": "monitoring.coreos.com/v1",
    "ScaledObject": "keda.sh/v1alpha1",
}
DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")


def test_there_are_ci_value_files() -> None:
    assert len(CI_VALUES) >= 5, CI_VALUES


@pytest.mark.parametrize("case", CASES)
def test_lint_is_clean(case: str) -> None:
    report = helm.lint(CHART, case_values(case), strict=True, kube_version="v1.27.0")
    assert report["total_charts_linted"] == 1
    problems = [message for message in report["messages"] if message["severity"] >= 2]
    assert not problems and not report["errors"], problems or report["errors"]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("version", KUBE_VERSIONS)
def test_every_builtin_object_matches_the_kubernetes_schema(case: str, version: str) -> None:
    validated = 0
    for doc in render_case(case).docs:
        if doc["kind"] in CUSTOM_KINDS:
            continue
        where = f"{doc['kind']}/{doc['metadata']['name']}"
        try:
            kubernetes_validate.validate(doc, version, strict=True)
        except kubernetes_validate.ValidationError as error:
            path = ".".join(str(part) for part in error.path)
            pytest.fail(f"{case}: {where} is invalid for Kubernetes {version} at {path}: {error}")
        except kubernetes_validate.SchemaNotFoundError as error:
            pytest.fail(f"{case}: {where}: {error.message}")  # not a kind Kubernetes has
        validated += 1
    assert validated >= 8


@pytest.mark.parametrize("case", CASES)
def test_objects_are_well_named_and_labelled(case: str) -> None:
    rendered = render_case(case)
    seen: set[tuple[str, str]] = set()
    for doc in rendered.docs:
        kind, meta = doc["kind"], doc["metadata"]
        assert doc["apiVersion"] == CUSTOM_KINDS.get(kind, doc["apiVersion"])
        assert DNS_LABEL.match(meta["name"]) and len(meta["name"]) <= 63, meta["name"]
        assert (kind, meta["name"]) not in seen, f"two {kind} named {meta['name']}"
        seen.add((kind, meta["name"]))
        labels = meta["labels"]
        assert labels["app.kubernetes.io/instance"] == "demo"
        assert labels["app.kubernetes.io/managed-by"] == "Helm"
        assert labels["helm.sh/chart"] == "arena-0.1.0"


def string_map(value: Any) -> bool:
    return isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    )


def check_service_monitor(doc: Doc) -> None:
    """The fields of monitoring.coreos.com/v1 ServiceMonitor the chart uses, with their types."""
    spec = doc["spec"]
    assert set(spec) <= {"jobLabel", "namespaceSelector", "selector", "endpoints"}, spec
    assert isinstance(spec["jobLabel"], str)
    assert spec["namespaceSelector"] == {"matchNames": ["games"]}
    selector = spec["selector"]
    assert set(selector) <= {"matchLabels", "matchExpressions"}
    assert string_map(selector["matchLabels"])
    for expression in selector.get("matchExpressions", []):
        assert set(expression) == {"key", "operator", "values"}
        assert expression["operator"] in ("In", "NotIn")
        assert all(isinstance(value, str) for value in expression["values"])
    assert spec["endpoints"], "no endpoints"
    for endpoint in spec["endpoints"]:
        assert set(endpoint) <= {"port", "path", "scheme", "interval", "scrapeTimeout"}
        assert isinstance(endpoint["port"], str) and endpoint["path"] == "/metrics"
        assert endpoint["scheme"] in ("http", "https")
        for key in ("interval", "scrapeTimeout"):
            assert re.fullmatch(r"([0-9]+(ms|s|m|h))+", endpoint[key]), endpoint[key]


def check_scaled_object(doc: Doc) -> None:
    """The fields of keda.sh/v1alpha1 ScaledObject and its redis trigger, with their types."""
    spec = doc["spec"]
    assert set(spec) <= {
        "scaleTargetRef",
        "pollingInterval",
        "cooldownPeriod",
        "minReplicaCount",
        "maxReplicaCount",
        "triggers",
    }, spec
    assert set(spec["scaleTargetRef"]) == {"apiVersion", "kind", "name"}
    for key in ("pollingInterval", "cooldownPeriod", "minReplicaCount", "maxReplicaCount"):
        assert isinstance(spec[key], int) and spec[key] >= 0, key
    assert spec["minReplicaCount"] <= spec["maxReplicaCount"]
    (trigger,) = spec["triggers"]
    assert set(trigger) <= {"type", "metadata", "authenticationRef"}
    assert trigger["type"] == "redis"
    # KEDA's trigger metadata is a map of strings: a bare number there is rejected by the CRD.
    assert string_map(trigger["metadata"]), trigger["metadata"]
    assert {"address", "listName", "listLength"} <= set(trigger["metadata"])
    assert re.fullmatch(r"[^:/\s]+:[0-9]+", trigger["metadata"]["address"])
    for key in ("listLength", "activationListLength", "databaseIndex"):
        assert trigger["metadata"][key].isdigit(), key
    if "authenticationRef" in trigger:
        assert set(trigger["authenticationRef"]) == {"name"}


def check_prometheus_rule(doc: Doc) -> None:
    """The fields of monitoring.coreos.com/v1 PrometheusRule, with their types."""
    assert set(doc["spec"]) == {"groups"}
    for group in doc["spec"]["groups"]:
        assert set(group) <= {"name", "interval", "rules"} and isinstance(group["name"], str)
        for rule in group["rules"]:
            assert set(rule) <= {"alert", "record", "expr", "for", "labels", "annotations"}
            assert isinstance(rule["expr"], str) and isinstance(rule["alert"], str)
            assert string_map(rule.get("labels", {})) and string_map(rule.get("annotations", {}))


@pytest.mark.parametrize("case", CASES)
def test_custom_resources_are_well_formed(case: str) -> None:
    checks = {
        "ServiceMonitor": check_service_monitor,
        "PrometheusRule": check_prometheus_rule,
        "ScaledObject": check_scaled_object,
    }
    for doc in render_case(case).docs:
        if doc["kind"] in checks:
            assert set(doc) == {"apiVersion", "kind", "metadata", "spec"}
            checks[doc["kind"]](doc)


def test_the_ci_files_switch_on_every_optional_object() -> None:
    kinds = {doc["kind"] for case in CASES for doc in render_case(case).docs}
    assert {
        "Deployment",
        "StatefulSet",
        "Service",
        "Secret",
        "ServiceAccount",
        "ConfigMap",
        "Ingress",
        "NetworkPolicy",
        "PodDisruptionBudget",
        "Pod",
        "ServiceMonitor",
        "PrometheusRule",
        "ScaledObject",
    } <= kinds
