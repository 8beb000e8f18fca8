"""values.yaml and values.schema.json: every value described, the schema strict (unknown keys and
wrong types are rejected by Helm before anything renders) and in step with the defaults."""

from __future__ import annotations

import json
import re
from typing import Any

import helm_python as helm
import pytest

from tests.helm.chart import CASES, CHART, case_values, chart_values

SCHEMA: dict[str, Any] = json.loads((CHART / "values.schema.json").read_text())


def resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        name = node["$ref"].removeprefix("#/$defs/")
        node = SCHEMA["$defs"][name]
    return node


def schema_errors(values: dict[str, Any]) -> str | None:
    """Helm's verdict on `values` (coalesced over the defaults), or None when they pass."""
    with helm.Chart.load(CHART) as chart:
        try:
            chart.validate_schema(values)
        except helm.HelmValuesError as error:
            return str(error)
    return None


@pytest.mark.parametrize("case", CASES)
def test_defaults_and_ci_values_pass_the_schema(case: str) -> None:
    assert schema_errors(case_values(case)) is None


BAD_VALUES: list[tuple[str, dict[str, Any], str]] = [
    # unknown keys, at every depth
    ("top-level typo", {"gatewy": {"replicaCount": 2}}, "gatewy"),
    ("rule switch not auto", {"metrics": {"prometheusRule": {"enabled": "yes"}}}, "enabled"),
    (
        "relative runbook base",
        {"metrics": {"prometheusRule": {"runbookBaseUrl": "docs"}}},
        "runbookBaseUrl",
    ),
    ("nested typo", {"gateway": {"replicas": 3}}, "replicas"),
    ("deep typo", {"redis": {"persistence": {"sise": "5Gi"}}}, "sise"),
    ("autoscaling typo", {"worker": {"autoscaling": {"maxReplica": 3}}}, "maxReplica"),
    ("resources typo", {"worker": {"resources": {"request": {"cpu": "1"}}}}, "request"),
    (
        "toleration key",
        {"gateway": {"tolerations": [{"key": "a", "efect": "NoSchedule"}]}},
        "efect",
    ),
    ("network peer", {"networkPolicy": {"grpcFrom": [{"podSelectr": {}}]}}, "podSelectr"),
    ("monitor typo", {"metrics": {"serviceMonitor": {"enable": True}}}, "enable"),
    # wrong types and values
    ("replicas as text", {"gateway": {"replicaCount": "2"}}, "/gateway/replicaCount"),
    ("negative replicas", {"worker": {"replicaCount": -1}}, "/worker/replicaCount"),
    ("no processes", {"worker": {"processes": 0}}, "/worker/processes"),
    ("flag as text", {"redis": {"enabled": "yes"}}, "/redis/enabled"),
    ("port too big", {"gateway": {"grpcPort": 70000}}, "/gateway/grpcPort"),
    ("port as text", {"exporter": {"port": "9100"}}, "/exporter/port"),
    ("root user", {"podSecurityContext": {"runAsUser": 0}}, "/podSecurityContext/runAsUser"),
    ("bad quantity", {"gateway": {"resources": {"limits": {"memory": "lots"}}}}, "memory"),
    ("pull policy", {"image": {"pullPolicy": "Sometimes"}}, "/image/pullPolicy"),
    ("service type", {"gateway": {"external": {"type": "ClusterIP"}}}, "/gateway/external/type"),
    ("node port range", {"gateway": {"external": {"nodePort": 80}}}, "nodePort"),
    ("fsync policy", {"redis": {"appendFsync": "sometimes"}}, "/redis/appendFsync"),
    ("labels not strings", {"metrics": {"serviceMonitor": {"labels": {"a": 1}}}}, "labels"),
    ("interval", {"metrics": {"serviceMonitor": {"interval": 30}}}, "interval"),
    ("redis url", {"externalRedis": {"url": "http://redis:6379"}}, "/externalRedis/url"),
    (
        "keda address",
        {"worker": {"autoscaling": {"redisAddress": "redis://r:6379"}}},
        "redisAddress",
    ),
    ("budget", {"gateway": {"podDisruptionBudget": {"maxUnavailable": "half"}}}, "maxUnavailable"),
    ("list not map", {"gateway": {"nodeSelector": ["linux"]}}, "/gateway/nodeSelector"),
    ("a value removed", {"worker": {"resources": None}}, "resources"),
    # no Redis at all
    ("no redis", {"redis": {"enabled": False}}, "externalRedis"),
]


@pytest.mark.parametrize(
    ("values", "named"), [case[1:] for case in BAD_VALUES], ids=[case[0] for case in BAD_VALUES]
)
def test_bad_values_are_rejected_by_the_schema(values: dict[str, Any], named: str) -> None:
    error = schema_errors(values)
    assert error is not None, f"accepted {values}"
    assert named in error, error


def test_bad_values_stop_render_and_lint() -> None:
    bad = {"gateway": {"replicaCount": "two"}}
    with helm.Chart.load(CHART) as chart, pytest.raises(helm.HelmValuesError, match="replicaCount"):
        chart.render(bad, name="demo", namespace="games")
    report = helm.lint(CHART, bad, strict=True)
    assert any(m["severity"] == 3 and "replicaCount" in m["error"] for m in report["messages"])


@pytest.mark.parametrize(
    ("values", "message"),
    [
        (
            {
                "redis": {"enabled": False},
                "externalRedis": {"url": "redis://r:6379/0"},
                "worker": {"autoscaling": {"enabled": True}},
            },
            "redisAddress",
        ),
        (
            {"worker": {"autoscaling": {"enabled": True, "minReplicas": 5, "maxReplicas": 2}}},
            "minReplicas",
        ),
    ],
)
def test_inconsistent_values_fail_the_render(values: dict[str, Any], message: str) -> None:
    with helm.Chart.load(CHART) as chart, pytest.raises(helm.HelmRenderError, match=message):
        chart.render(values, name="demo", namespace="games")


def walk(node: dict[str, Any], path: str) -> list[tuple[str, dict[str, Any]]]:
    """Every schema node that is a JSON object with named properties, resolved, with its path."""
    node = resolve(node)
    found: list[tuple[str, dict[str, Any]]] = []
    if "properties" in node:
        found.append((path, node))
        for key, child in node["properties"].items():
            found.extend(walk(child, f"{path}.{key}"))
    for key in ("items", "additionalProperties"):
        if isinstance(node.get(key), dict):
            found.extend(walk(node[key], f"{path}[]"))
    for alternative in node.get("oneOf", []) + node.get("anyOf", []):
        found.extend(walk(alternative, path))
    return found


def test_every_object_in_the_schema_is_closed_and_typed() -> None:
    nodes = walk(SCHEMA, "$")
    assert len(nodes) > 30
    for path, node in nodes:
        assert node.get("additionalProperties") is False, f"{path} accepts unknown keys"
        assert node.get("type") == "object", path
        for key, child in node["properties"].items():
            child = resolve(child)
            assert "type" in child or "oneOf" in child or "anyOf" in child, f"{path}.{key}"
    for name, definition in SCHEMA["$defs"].items():
        assert "type" in definition or "oneOf" in definition, name


def test_schema_and_defaults_have_the_same_keys() -> None:
    """No schema entry without a documented default, no default the schema does not know."""

    def compare(node: dict[str, Any], value: Any, path: str) -> None:
        node = resolve(node)
        if "properties" not in node or not isinstance(value, dict):
            return
        if set(node.get("required", [])) == set(node["properties"]):  # a record: all keys given
            assert set(value) == set(node["properties"]), path
        else:  # optional keys (resource lists, affinity): the defaults use some of them
            assert set(value) <= set(node["properties"]), path
        for key, child in value.items():
            compare(node["properties"][key], child, f"{path}.{key}")

    compare(SCHEMA, chart_values(), "$")


KEY = re.compile(r"^(?P<indent> *)(?P<key>[A-Za-z_][-\w.]*):(?: |$)")


def test_every_value_has_a_comment() -> None:
    lines = (CHART / "values.yaml").read_text().splitlines()
    undocumented = []
    for number, line in enumerate(lines):
        match = KEY.match(line)
        if not match:
            continue
        above = lines[number - 1].strip() if number else ""
        inline = " # " in line
        if not (above.startswith("#") or inline):
            undocumented.append(f"line {number + 1}: {line.strip()}")
    assert not undocumented, undocumented
    assert sum(bool(KEY.match(line)) for line in lines) > 80
