"""The Grafana dashboard (helm/arena/dashboards/arena.json): valid queries over real metric names."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import redis
from prometheus_client.parser import text_string_to_metric_families

from arena.metrics.server import exposition
from tests.metrics.helpers import populate

DASHBOARD = Path(__file__).parents[2] / "helm" / "arena" / "dashboards" / "arena.json"
SUFFIXES = ("_bucket", "_count", "_sum", "_total")


def _panels() -> list[dict[str, Any]]:
    dashboard = json.loads(DASHBOARD.read_text())
    assert dashboard["title"] == "Caper Arena" and dashboard["uid"] == "caper-arena"
    names = [v["name"] for v in dashboard["templating"]["list"]]
    assert names[0] == "datasource" and {"game", "ladder", "bot", "sprt"} <= set(names)
    return list(dashboard["panels"])


def _queries() -> list[str]:
    """Every panel's PromQL, with Grafana's variables replaced by what they expand to."""
    queries = []
    for panel in _panels():
        for target in panel.get("targets", []):
            expr = target["expr"].replace("$__rate_interval", "2m")
            queries.append(re.sub(r"\$\w+", ".*", expr))
    return queries


def test_panels_cover_what_operators_watch() -> None:
    panels = _panels()
    ids = [panel["id"] for panel in panels]
    assert len(ids) == len(set(ids))
    assert all(p["gridPos"]["x"] + p["gridPos"]["w"] <= 24 for p in panels)
    titles = " ".join(panel["title"] for panel in panels).lower()
    for topic in (
        "elo",
        "weng-lin ordinal",
        "games per minute",
        "latency",
        "queue depth",
        "faults",
        "sprt log-likelihood ratio and bounds",
        "sprt elo estimate",
        "pentanomial",
    ):
        assert topic in titles, topic


def test_every_queried_metric_is_exported(redis_client: redis.Redis) -> None:
    populate(redis_client)
    exported = {
        family.name for family in text_string_to_metric_families(exposition(redis_client).decode())
    }
    for query in _queries():
        for name in re.findall(r"\barena_[a-z0-9_]+", query):
            base = next((name.removesuffix(s) for s in SUFFIXES if name.endswith(s)), name)
            assert base in exported, f"{name} in {query}"


def test_every_query_is_valid_promql(tmp_path: Path) -> None:
    promtool = shutil.which("promtool")
    if promtool is None:  # a missing tool fails: a skip would hide an unchecked exposition
        pytest.fail("promtool is missing: `make test` installs Debian's prometheus package")
    rules = [{"record": f"dashboard:query{n}", "expr": q} for n, q in enumerate(_queries())]
    path = tmp_path / "rules.json"  # YAML is a superset of JSON: promtool reads it as is
    path.write_text(json.dumps({"groups": [{"name": "dashboard", "rules": rules}]}))
    checked = subprocess.run(
        [promtool, "check", "rules", str(path)], capture_output=True, timeout=60, check=False
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
