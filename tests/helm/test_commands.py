"""What the chart runs works with the code it ships: every container command is a valid `arena`
command line, and the `helm test` script really tells a serving gateway from a missing one."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import click
import pytest

from arena.cli import main
from arena.gateway.testing import running_arena
from tests.helm.chart import CASES, containers, pod_specs, render_case


def parse_arena_command(argv: list[str]) -> click.Context:
    """Parse `arena NAME ARGS...` as the CLI would (unknown options and bad values raise a
    click.UsageError), without running the command."""
    name, *rest = argv
    root = click.Context(main, info_name="arena")
    command = main.get_command(root, name)
    assert command is not None, f"`arena {name}` does not exist"
    return command.make_context(name, rest, parent=root)


@pytest.mark.parametrize("case", CASES)
def test_every_arena_container_runs_a_valid_command(case: str) -> None:
    seen = set()
    for workload, spec in pod_specs(render_case(case)):
        for container in containers(spec):
            if container.get("command") != ["arena"]:
                continue
            context = parse_arena_command(container["args"])
            seen.add(context.info_name)
            variables = {entry["name"] for entry in container["env"]}
            # Every process finds Redis through REDIS_URL (the --redis-url option's envvar).
            redis_option = next(p for p in context.command.params if p.name == "redis_url")
            assert isinstance(redis_option, click.Option) and redis_option.envvar == "REDIS_URL"
            assert "REDIS_URL" in variables, workload
            if context.info_name == "serve":
                token = next(p for p in context.command.params if p.name == "admin_token")
                assert isinstance(token, click.Option) and token.envvar == "ARENA_ADMIN_TOKEN"
                assert "ARENA_ADMIN_TOKEN" in variables
            if "host" in context.params:
                # Servers listen on loopback unless told: a pod's must be reachable from its
                # Service, so the chart says so itself.
                assert "--host" in container["args"], workload
                assert context.params["host"] == "0.0.0.0", workload
    assert {"serve", "worker"} <= seen


def health_script() -> str:
    (pod,) = render_case("default").all("Pod")
    (container,) = pod["spec"]["containers"]
    script = container["command"][2]
    assert isinstance(script, str)
    return script


def run_health_check(target: str, timeout_s: float) -> subprocess.CompletedProcess[str]:
    """The helm test pod's script, run with this interpreter (the image has the same packages)."""
    child_env = {**os.environ, "ARENA_GATEWAY": target, "ARENA_TEST_TIMEOUT": str(timeout_s)}
    return subprocess.run(
        [sys.executable, "-c", health_script()],
        env=child_env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_helm_test_script_passes_against_a_real_gateway(redis_server_url: str) -> None:
    with running_arena(redis_server_url) as arena:
        result = run_health_check(arena.target, 20)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "(server): SERVING" in result.stdout
    assert "arena.v1.BotGatewayService: SERVING" in result.stdout


def test_helm_test_script_fails_when_no_gateway_answers() -> None:
    with socket.socket() as probe:  # a free port that nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = run_health_check(f"127.0.0.1:{port}", 1)
    assert result.returncode != 0
