"""What the rendered chart does: hardened pods, the commands and probes of each component, Redis
wiring, secrets, Services, scaling, monitoring and network policy, for every case."""

from __future__ import annotations

import base64
import json

import pytest
import redis

from arena.store.job_queue import arena_queue
from tests.helm.chart import (
    CASES,
    FULLNAME,
    NAMESPACE,
    Doc,
    Rendered,
    component,
    containers,
    env,
    merged_values,
    only_container,
    parse_manifests,
    pod_specs,
    pod_template_labels,
    render_case,
    render_values,
    selects,
)

ARENA_COMPONENTS = ("gateway", "worker", "exporter", "web")


WORKER = f"Deployment/{component('worker')}"
SANDBOXED = {"seccompProfile": {"type": "Unconfined"}, "procMount": "Unmasked"}


@pytest.mark.parametrize("case", CASES)
def test_every_pod_and_container_is_locked_down(case: str) -> None:
    """Only the workers of a chart that runs hosted bots give up what bubblewrap needs, and only
    that (test_workers_that_run_hosted_bots_relax_only_what_bubblewrap_needs)."""
    specs = list(pod_specs(render_case(case)))
    assert len(specs) >= 3
    sandboxed = merged_values(case)["worker"]["sandbox"]["enabled"]
    for name, spec in specs:
        if name == WORKER and sandboxed:
            continue
        pod = spec["securityContext"]
        assert pod["runAsNonRoot"] is True, name
        assert pod["runAsUser"] > 0 and pod["runAsGroup"] > 0, name
        assert pod["seccompProfile"] == {"type": "RuntimeDefault"}, name
        assert spec["automountServiceAccountToken"] is False, name
        for container in containers(spec):
            where = f"{name} container {container['name']}"
            context = container["securityContext"]
            assert context["runAsNonRoot"] is True, where
            assert context["readOnlyRootFilesystem"] is True, where
            assert context["allowPrivilegeEscalation"] is False, where
            assert context["privileged"] is False, where
            assert context["capabilities"] == {"drop": ["ALL"]}, where
            assert context["seccompProfile"] == {"type": "RuntimeDefault"}, where
            for bound in ("requests", "limits"):
                assert {"cpu", "memory"} <= set(container["resources"][bound]), where
            # The root filesystem is read-only: /tmp is the writable scratch space.
            mounts = {mount["mountPath"]: mount["name"] for mount in container["volumeMounts"]}
            volumes = {volume["name"]: volume for volume in spec["volumes"]}
            assert "emptyDir" in volumes[mounts["/tmp"]], where


@pytest.mark.parametrize("case", CASES)
def test_arena_processes_run_as_the_image_user_with_redis_url(case: str) -> None:
    rendered, values = render_case(case), merged_values(case)
    image = values["image"]["repository"] + ":" + (values["image"]["tag"] or "0.1.0")
    for name in ARENA_COMPONENTS:
        workload = rendered.maybe("Deployment", component(name))
        if workload is None:
            assert name in ("exporter", "web") and not values[name]["enabled"]
            continue
        spec = workload["spec"]["template"]["spec"]
        assert spec["securityContext"]["runAsUser"] == values["podSecurityContext"]["runAsUser"]
        container = only_container(workload)
        assert container["image"] == image
        assert container["command"] == ["arena"]
        check_redis_url(rendered, values, env(container, "REDIS_URL"))


def check_redis_url(rendered: Rendered, values: Doc, variable: Doc) -> None:
    if values["redis"]["enabled"]:
        service = rendered.one("Service", component("redis"))
        assert [port["port"] for port in service["spec"]["ports"]] == [6379]
        assert variable["value"] == f"redis://{component('redis')}:6379/0"
        return
    assert rendered.maybe("StatefulSet", component("redis")) is None
    ref = variable["valueFrom"]["secretKeyRef"]
    external = values["externalRedis"]
    if external["existingSecret"]:
        assert ref == {"name": external["existingSecret"], "key": external["existingSecretKey"]}
    else:
        secret = rendered.one("Secret", ref["name"])
        assert base64.b64decode(secret["data"][ref["key"]]).decode() == external["url"]


@pytest.mark.parametrize("case", CASES)
def test_gateway_serves_grpc_and_metrics_with_grpc_health_probes(case: str) -> None:
    rendered, values = render_case(case), merged_values(case)
    gateway = rendered.one("Deployment", component("gateway"))
    assert gateway["spec"]["replicas"] == values["gateway"]["replicaCount"]
    container = only_container(gateway)
    assert container["args"] == [
        "serve",
        "--host",
        "0.0.0.0",
        "--port",
        "50051",
        "--metrics-port",
        "9100",
    ]
    ports = {port["name"]: port["containerPort"] for port in container["ports"]}
    assert ports == {"grpc": 50051, "metrics": 9100}
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        # The kubelet's native gRPC check of grpc.health.v1 (the whole server: service "").
        assert container[probe]["grpc"] == {"port": 50051}, probe
    service = rendered.one("Service", component("gateway"))
    assert service["spec"]["type"] == "ClusterIP"
    assert {(p["name"], p["port"]) for p in service["spec"]["ports"]} == {
        ("grpc", 50051),
        ("metrics", 9100),
    }
    grpc_port = next(p for p in service["spec"]["ports"] if p["name"] == "grpc")
    assert grpc_port["appProtocol"] == "kubernetes.io/h2c"


@pytest.mark.parametrize("case", CASES)
def test_gateway_reads_the_admin_token_from_a_secret(case: str) -> None:
    rendered, values = render_case(case), merged_values(case)
    container = only_container(rendered.one("Deployment", component("gateway")))
    ref = env(container, "ARENA_ADMIN_TOKEN")["valueFrom"]["secretKeyRef"]
    assert ref["key"] == values["adminToken"]["secretKey"]
    existing = values["adminToken"]["existingSecret"]
    if existing:
        assert ref["name"] == existing
        assert all(secret["metadata"]["name"] != existing for secret in rendered.all("Secret"))
        return
    token = base64.b64decode(rendered.one("Secret", ref["name"])["data"][ref["key"]]).decode()
    assert token == values["adminToken"]["value"] or len(token) == 32
    # Only the gateway needs the token.
    for name in ("worker", "exporter"):
        workload = rendered.maybe("Deployment", component(name))
        if workload is not None:
            variables = [entry["name"] for entry in only_container(workload)["env"]]
            assert "ARENA_ADMIN_TOKEN" not in variables


def test_a_generated_admin_token_is_random() -> None:
    first = render_case("default").one("Secret", FULLNAME)["data"]["admin-token"]
    again = Rendered("again", parse_manifests(render_values({})))
    assert again.one("Secret", FULLNAME)["data"]["admin-token"] != first


@pytest.mark.parametrize("case", CASES)
def test_worker_runs_the_rq_pool_and_scales_on_the_arena_queue(case: str) -> None:
    rendered, values = render_case(case), merged_values(case)
    workers = values["worker"]
    worker = rendered.one("Deployment", component("worker"))
    container = only_container(worker)
    assert container["args"] == ["worker", "--processes", str(workers["processes"])]
    assert "ports" not in container  # nothing connects to a worker
    spec = worker["spec"]["template"]["spec"]
    assert spec["terminationGracePeriodSeconds"] == workers["terminationGracePeriodSeconds"]
    scaled = rendered.maybe("ScaledObject", component("worker"))
    if not workers["autoscaling"]["enabled"]:
        assert scaled is None
        assert worker["spec"]["replicas"] == workers["replicaCount"]
        return
    assert scaled is not None
    assert "replicas" not in worker["spec"], "KEDA owns the replica count"
    assert scaled["spec"]["scaleTargetRef"] == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "name": worker["metadata"]["name"],
    }
    auto = workers["autoscaling"]
    assert scaled["spec"]["minReplicaCount"] == auto["minReplicas"]
    assert scaled["spec"]["maxReplicaCount"] == auto["maxReplicas"]
    (trigger,) = scaled["spec"]["triggers"]
    # The list RQ keeps for the queue the workers consume (no server is contacted here).
    assert trigger["metadata"]["listName"] == arena_queue(redis.Redis()).key == "rq:queue:arena"
    assert trigger["metadata"]["listLength"] == str(auto["queueLengthPerReplica"])
    if values["redis"]["enabled"]:
        expected = f"{component('redis')}.{NAMESPACE}.svc:6379"
        assert trigger["metadata"]["address"] == expected
    else:
        assert trigger["metadata"]["address"] == auto["redisAddress"]
        assert trigger["metadata"]["databaseIndex"] == str(auto["redisDatabase"])
    if auto["authenticationRef"]:
        assert trigger["authenticationRef"] == {"name": auto["authenticationRef"]}


@pytest.mark.parametrize("case", CASES)
def test_in_chart_redis_keeps_an_append_only_file_on_a_volume(case: str) -> None:
    rendered, values = render_case(case), merged_values(case)
    statefulset = rendered.maybe("StatefulSet", component("redis"))
    if not values["redis"]["enabled"]:
        assert statefulset is None
        return
    assert statefulset is not None
    assert statefulset["spec"]["replicas"] == 1
    assert statefulset["spec"]["serviceName"] == component("redis-headless")
    rendered.one("Service", component("redis-headless"))
    container = only_container(statefulset)
    args = container["args"]
    assert args[args.index("--appendonly") + 1] == "yes"
    assert args[args.index("--dir") + 1] == "/data"
    assert args[args.index("--appendfsync") + 1] == values["redis"]["appendFsync"]
    extra = values["redis"]["extraArgs"]
    if extra:
        assert args[-len(extra) :] == extra
    assert {"mountPath": "/data", "name": "data"} in container["volumeMounts"]
    persistence = values["redis"]["persistence"]
    claims = statefulset["spec"].get("volumeClaimTemplates", [])
    volumes = {v["name"]: v for v in statefulset["spec"]["template"]["spec"]["volumes"]}
    if persistence["enabled"]:
        (claim,) = claims
        assert claim["metadata"]["name"] == "data" and "data" not in volumes
        assert claim["spec"]["resources"]["requests"]["storage"] == persistence["size"]
        assert claim["spec"].get("storageClassName", "") == persistence["storageClass"]
    else:
        assert not claims and "emptyDir" in volumes["data"]


@pytest.mark.parametrize("case", CASES)
def test_every_selector_finds_its_pods_and_ports(case: str) -> None:
    rendered = render_case(case)
    pods = pod_template_labels(rendered)
    for workload in [*rendered.all("Deployment"), *rendered.all("StatefulSet")]:
        match = workload["spec"]["selector"]["matchLabels"]
        assert selects(match, workload["spec"]["template"]["metadata"]["labels"])
    for service in rendered.all("Service"):
        selector = service["spec"]["selector"]
        targets = [
            workload
            for workload in [*rendered.all("Deployment"), *rendered.all("StatefulSet")]
            if selects(selector, workload["spec"]["template"]["metadata"]["labels"])
        ]
        assert len(targets) == 1, f"Service {service['metadata']['name']} selects {targets}"
        named = {
            p["name"]
            for c in containers(targets[0]["spec"]["template"]["spec"])
            for p in c.get("ports", [])
        }
        for port in service["spec"]["ports"]:
            assert port["targetPort"] in named, (service["metadata"]["name"], port)
    for budget in rendered.all("PodDisruptionBudget"):
        assert any(selects(budget["spec"]["selector"]["matchLabels"], labels) for labels in pods)
    for policy in rendered.all("NetworkPolicy"):
        assert any(selects(policy["spec"]["podSelector"]["matchLabels"], labels) for labels in pods)


@pytest.mark.parametrize("case", CASES)
def test_network_policies_fence_redis_and_the_workers(case: str) -> None:
    rendered, values = render_case(case), merged_values(case)
    policies = rendered.all("NetworkPolicy")
    if not values["networkPolicy"]["enabled"]:
        assert policies == []
        return
    worker = rendered.one("NetworkPolicy", component("worker"))
    assert worker["spec"]["policyTypes"] == ["Ingress"] and worker["spec"]["ingress"] == []
    gateway = rendered.one("NetworkPolicy", component("gateway"))
    rules = {rule["ports"][0]["port"]: rule for rule in gateway["spec"]["ingress"]}
    assert set(rules) == {"grpc", "metrics"}
    if values["networkPolicy"]["grpcFrom"]:
        peers = rules["grpc"]["from"]
        # The release's own pods (the helm test pod among them) always reach the gateway.
        assert peers[0]["podSelector"]["matchLabels"]["app.kubernetes.io/instance"] == "demo"
        assert peers[1:] == values["networkPolicy"]["grpcFrom"]
    else:
        assert "from" not in rules["grpc"], "bots connect from anywhere"
    if not values["redis"]["enabled"]:
        return
    (rule,) = rendered.one("NetworkPolicy", component("redis"))["spec"]["ingress"]
    peers = rule["from"]
    release_pods = {"app.kubernetes.io/name": "arena", "app.kubernetes.io/instance": "demo"}
    assert peers[0] == {"podSelector": {"matchLabels": release_pods}}
    if values["worker"]["autoscaling"]["enabled"]:
        keda = {"kubernetes.io/metadata.name": values["worker"]["autoscaling"]["kedaNamespace"]}
        assert peers[1:] == [{"namespaceSelector": {"matchLabels": keda}}]
    else:
        assert len(peers) == 1


@pytest.mark.parametrize("case", CASES)
def test_service_monitor_scrapes_the_metrics_ports(case: str) -> None:
    rendered, values = render_case(case), merged_values(case)
    monitors = rendered.all("ServiceMonitor")
    if not values["metrics"]["serviceMonitor"]["enabled"]:
        assert monitors == []
        return
    (monitor,) = monitors
    for key, value in values["metrics"]["serviceMonitor"]["labels"].items():
        assert monitor["metadata"]["labels"][key] == value
    selector = monitor["spec"]["selector"]
    (expression,) = selector["matchExpressions"]
    scraped = [
        service
        for service in rendered.all("Service")
        if selects(selector["matchLabels"], service["metadata"]["labels"])
        and service["metadata"]["labels"][expression["key"]] in expression["values"]
        and any(port["name"] == "metrics" for port in service["spec"]["ports"])
    ]
    # Every /metrics serves every series (all read from Redis): one source, never both.
    expected = component("exporter" if values["exporter"]["enabled"] else "gateway")
    assert [service["metadata"]["name"] for service in scraped] == [expected]
    assert monitor["spec"]["endpoints"][0]["port"] == "metrics"


@pytest.mark.parametrize("case", CASES)
def test_grafana_dashboard_configmap(case: str) -> None:
    rendered, values = render_case(case), merged_values(case)
    maps = rendered.all("ConfigMap")
    settings = values["metrics"]["grafanaDashboard"]
    if not settings["enabled"]:
        assert maps == []
        return
    (config,) = maps
    assert config["metadata"]["namespace"] == (settings["namespace"] or NAMESPACE)
    assert config["metadata"]["labels"]["grafana_dashboard"] == "1"
    dashboard = json.loads(config["data"]["arena.json"])
    assert dashboard["title"] == "Caper Arena"
    assert isinstance(dashboard["panels"], list)


@pytest.mark.parametrize("case", CASES)
def test_external_access(case: str) -> None:
    rendered, values = render_case(case), merged_values(case)
    external = values["gateway"]["external"]
    service = rendered.maybe("Service", component("gateway-external"))
    if not external["enabled"]:
        assert service is None
    else:
        assert service is not None
        assert service["spec"]["type"] == external["type"]
        (port,) = service["spec"]["ports"]  # gRPC only: metrics stay inside the cluster
        assert port["name"] == "grpc" and port["port"] == external["port"]
        assert port.get("nodePort") == external.get("nodePort")
    ingress = values["gateway"]["ingress"]
    found = rendered.maybe("Ingress", component("gateway"))
    if not ingress["enabled"]:
        assert found is None
        return
    assert found is not None
    (rule,) = found["spec"]["rules"]
    assert rule["host"] == ingress["host"]
    (path,) = rule["http"]["paths"]
    assert path["backend"]["service"] == {"name": component("gateway"), "port": {"name": "grpc"}}


@pytest.mark.parametrize("case", CASES)
def test_web_site_serves_http_read_only_with_an_optional_ingress(case: str) -> None:
    rendered, values = render_case(case), merged_values(case)
    web = values["web"]
    deployment = rendered.maybe("Deployment", component("web"))
    if not web["enabled"]:
        assert deployment is None and rendered.maybe("Service", component("web")) is None
        assert rendered.maybe("Ingress", component("web")) is None
        return
    assert deployment is not None and deployment["spec"]["replicas"] == web["replicaCount"]
    container = only_container(deployment)
    assert container["args"] == ["web", "--host", "0.0.0.0", "--port", str(web["port"])]
    assert container["ports"] == [{"name": "http", "containerPort": web["port"], "protocol": "TCP"}]
    for probe in ("readinessProbe", "livenessProbe"):  # answered without Redis
        assert container[probe]["httpGet"] == {"path": "/static/site.css", "port": "http"}
    service = rendered.one("Service", component("web"))
    (port,) = service["spec"]["ports"]
    assert (port["port"], port["targetPort"]) == (web["service"]["port"], "http")
    found = rendered.maybe("Ingress", component("web"))
    if not web["ingress"]["enabled"]:
        assert found is None
    else:
        assert found is not None
        (rule,) = found["spec"]["rules"]
        assert rule["host"] == web["ingress"]["host"]
        (path,) = rule["http"]["paths"]
        assert path["backend"]["service"] == {"name": component("web"), "port": {"name": "http"}}
        assert found["spec"]["tls"][0]["secretName"] == web["ingress"]["tlsSecretName"]
    if values["networkPolicy"]["enabled"]:
        (rule,) = rendered.one("NetworkPolicy", component("web"))["spec"]["ingress"]
        assert rule["ports"] == [{"port": "http", "protocol": "TCP"}]
        peers = values["networkPolicy"]["webFrom"]
        assert rule.get("from", [None])[1:] == peers  # the release's own pods, then webFrom


@pytest.mark.parametrize("case", CASES)
def test_helm_test_hook_checks_the_gateway_service(case: str) -> None:
    rendered = render_case(case)
    (pod,) = rendered.all("Pod")
    assert pod["metadata"]["annotations"]["helm.sh/hook"] == "test"
    assert pod["spec"]["restartPolicy"] == "Never"
    (container,) = pod["spec"]["containers"]
    assert container["command"][:2] == ["python", "-c"]
    assert "grpc_health.v1" in container["command"][2]
    port = merged_values(case)["gateway"]["service"]["port"]
    assert env(container, "ARENA_GATEWAY")["value"] == f"{component('gateway')}:{port}"


@pytest.mark.parametrize(
    ("values", "prefix"),
    [
        ({"nameOverride": "caper"}, "demo-caper"),
        ({"fullnameOverride": "arena"}, "arena"),
        ({"fullnameOverride": "x" * 63}, "x" * 55),  # 55 + len("-gateway") = 63
    ],
)
def test_names_follow_overrides_and_stay_distinct(values: Doc, prefix: str) -> None:
    rendered = Rendered("overrides", parse_manifests(render_values(values)))
    (gateway,) = [
        deployment
        for deployment in rendered.all("Deployment")
        if deployment["metadata"]["labels"]["app.kubernetes.io/component"] == "gateway"
    ]
    assert gateway["metadata"]["name"] == f"{prefix}-gateway"
    names = [(doc["kind"], doc["metadata"]["name"]) for doc in rendered.docs]
    assert len(set(names)) == len(names), names
    assert all(len(name) <= 63 for _, name in names)
    # The StatefulSet's pods carry controller-revision-hash=<name>-<10 characters>.
    assert len(rendered.all("StatefulSet")[0]["metadata"]["name"]) <= 52


@pytest.mark.parametrize("case", CASES)
def test_workers_that_run_hosted_bots_relax_only_what_bubblewrap_needs(case: str) -> None:
    values = merged_values(case)["worker"]["sandbox"]
    (spec,) = [spec for name, spec in pod_specs(render_case(case)) if name == WORKER]
    (container,) = containers(spec)
    context = container["securityContext"]
    (worker,) = [
        doc
        for doc in render_case(case).docs
        if doc["kind"] == "Deployment" and doc["metadata"]["name"] == component("worker")
    ]
    annotations = worker["spec"]["template"]["metadata"]["annotations"]
    apparmor = annotations.get("container.apparmor.security.beta.kubernetes.io/worker")
    assert spec.get("runtimeClassName", "") == values["runtimeClassName"]
    if not values["enabled"]:
        assert context["seccompProfile"] == {"type": "RuntimeDefault"}
        assert "procMount" not in context and "hostUsers" not in spec and apparmor is None
        return
    assert {key: context[key] for key in SANDBOXED} == SANDBOXED
    assert spec["hostUsers"] is False and apparmor == "unconfined"
    assert spec["securityContext"]["runAsNonRoot"] is True
    assert context["runAsNonRoot"] is True and context["privileged"] is False
    assert context["allowPrivilegeEscalation"] is False
    assert context["readOnlyRootFilesystem"] is True
    assert context["capabilities"] == {"drop": ["ALL"]}
