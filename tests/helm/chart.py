"""Rendering helm/arena with Helm's own engine (helm-python-sdk bundles Helm's Go library, so no
`helm` binary and no network are needed) and looking things up in what it renders."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import helm_python as helm
import yaml
from helm_python import _native  # render options the wrapper does not pass (api_versions)

REPO = Path(__file__).resolve().parents[2]
CHART = REPO / "helm" / "arena"
CI_VALUES = sorted((CHART / "ci").glob("*.yaml"))
RELEASE, NAMESPACE = "demo", "games"
FULLNAME = f"{RELEASE}-arena"

# "default" renders the chart's own values; the others add one file of helm/arena/ci/ each.
CASES = ["default", *(path.stem for path in CI_VALUES)]

Doc = dict[str, Any]


def case_values(case: str) -> dict[str, Any]:
    """The values a case passes on top of the chart's defaults (`helm install -f FILE`)."""
    if case == "default":
        return {}
    loaded = yaml.safe_load((CHART / "ci" / f"{case}.yaml").read_text()) or {}
    assert isinstance(loaded, dict)
    return loaded


def chart_values() -> dict[str, Any]:
    loaded = yaml.safe_load((CHART / "values.yaml").read_text())
    assert isinstance(loaded, dict)
    return loaded


def merged_values(case: str) -> dict[str, Any]:
    """What the templates see: the defaults with the case's values coalesced over them."""
    with helm.Chart.load(CHART) as chart:
        return chart.merge_values(case_values(case))


def render_values(values: Mapping[str, Any]) -> dict[str, str]:
    """Template path -> rendered text, as `helm template demo helm/arena -n games` would."""
    with helm.Chart.load(CHART) as chart:
        return chart.render(dict(values), name=RELEASE, namespace=NAMESPACE, is_install=True)


def render_for_cluster(values: Mapping[str, Any], api_versions: list[str]) -> dict[str, str]:
    """`render_values` for a cluster serving these extra API versions (`helm template
    --api-versions`): the SDK's native renderer takes them, its Python wrapper does not pass them."""
    options = {"name": RELEASE, "namespace": NAMESPACE, "is_install": True}
    with helm.Chart.load(CHART) as chart:
        rendered = _native.call_string(
            "helm_render",
            chart._raw(),
            json.dumps(dict(values)),
            json.dumps({**options, "api_versions": api_versions}),
        )
    manifests: dict[str, str] = json.loads(rendered)
    return manifests


@dataclass(frozen=True)
class Rendered:
    """Every Kubernetes object the chart renders for one case, hooks included."""

    case: str
    docs: tuple[Doc, ...]

    def all(self, kind: str) -> list[Doc]:
        return [doc for doc in self.docs if doc["kind"] == kind]

    def maybe(self, kind: str, name: str) -> Doc | None:
        found = [doc for doc in self.all(kind) if doc["metadata"]["name"] == name]
        assert len(found) <= 1, f"two {kind} objects named {name}"
        return found[0] if found else None

    def one(self, kind: str, name: str) -> Doc:
        doc = self.maybe(kind, name)
        assert doc is not None, f"no {kind} {name} in {self.case}: {self.names()}"
        return doc

    def names(self) -> list[str]:
        return [f"{doc['kind']}/{doc['metadata']['name']}" for doc in self.docs]


def parse_manifests(rendered: Mapping[str, str]) -> tuple[Doc, ...]:
    docs: list[Doc] = []
    for path, text in sorted(rendered.items()):
        if not path.endswith(".yaml"):
            continue  # NOTES.txt
        for doc in yaml.safe_load_all(text):
            if doc:
                assert isinstance(doc, dict), f"{path} renders a non-mapping document"
                docs.append(doc)
    return tuple(docs)


@functools.cache
def render_case(case: str) -> Rendered:
    return Rendered(case, parse_manifests(render_values(case_values(case))))


def pod_template(doc: Doc) -> Doc | None:
    """The pod (metadata and spec) a workload, Job, CronJob or bare Pod creates; None for
    other kinds."""
    if doc["kind"] in ("Deployment", "StatefulSet", "Job"):
        template: Doc = doc["spec"]["template"]
        return template
    if doc["kind"] == "CronJob":
        scheduled: Doc = doc["spec"]["jobTemplate"]["spec"]["template"]
        return scheduled
    return doc if doc["kind"] == "Pod" else None


def pod_specs(rendered: Rendered) -> Iterator[tuple[str, Doc]]:
    """(object name, pod spec) of every workload, Job, CronJob and bare Pod, the helm test Pod
    included."""
    for doc in rendered.docs:
        if (pod := pod_template(doc)) is not None:
            yield f"{doc['kind']}/{doc['metadata']['name']}", pod["spec"]


def pod_template_labels(rendered: Rendered) -> list[dict[str, str]]:
    """The labels of every pod the chart's workloads would create."""
    return [pod["metadata"]["labels"] for doc in rendered.docs if (pod := pod_template(doc))]


def selects(selector: Mapping[str, str], labels: Mapping[str, str]) -> bool:
    return all(labels.get(key) == value for key, value in selector.items())


def containers(spec: Doc) -> list[Doc]:
    found: list[Doc] = [*spec.get("initContainers", []), *spec["containers"]]
    return found


def only_container(workload: Doc) -> Doc:
    (container,) = workload["spec"]["template"]["spec"]["containers"]
    assert isinstance(container, dict)
    return container


def env(container: Doc, name: str) -> Doc:
    found = [entry for entry in container.get("env", []) if entry["name"] == name]
    assert len(found) == 1, f"{container['name']} has {len(found)} {name} variables"
    entry: Doc = found[0]
    return entry


def component(name: str) -> str:
    return f"{FULLNAME}-{name}"
