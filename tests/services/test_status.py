"""`arena status` against a real Redis, a real gateway (loopback) and a real worker process: a
healthy arena exits 0; an event running with no live worker, a gateway that died without
leaving, an event with nothing queued, or Redis gone exit 1 naming what is wrong."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from click.testing import CliRunner, Result
from rq import Worker

from arena.cli import main
from arena.gateway.testing import Arena, running_arena
from arena.services import sprt_runs
from arena.services.status import ArenaStatus, arena_status
from arena.store import keys
from arena.store.job_queue import arena_queue
from arena.store.sprt import SprtDefinition
from tests.alerts.test_prometheus_end_to_end import eventually, free_port, process
from tests.store.ratings_helpers import make_ladder
from tests.workers.tournaments import create_and_start

pytestmark = pytest.mark.timeout(180)

README = Path(__file__).parents[2] / "README.md"


def status(url: str, *args: str) -> Result:
    return CliRunner().invoke(
        main, ["status", *args], catch_exceptions=False, env={"REDIS_URL": url}
    )


@pytest.fixture
def gateway(redis_server_url: str, redis_client: redis.Redis) -> Iterator[Arena]:
    with running_arena(redis_server_url) as arena:
        eventually(lambda: any(g.serving for g in arena_status(redis_client).gateways),
                   "the gateway never beat")  # fmt: skip
        yield arena


def firing(found: ArenaStatus) -> dict[str, str]:
    return {alert.name: alert.detail for alert in found.firing}


def test_a_healthy_arena_exits_0_and_shows_its_parts(
    redis_server_url: str, redis_client: redis.Redis, gateway: Arena, tmp_path: Path
) -> None:
    make_ladder(redis_client, "main")
    with process(tmp_path / "worker.log", "worker", url=redis_server_url):
        eventually(lambda: Worker.count(connection=redis_client) == 1, "the worker never started")
        out = status(redis_server_url)
    assert out.exit_code == 0, out.output
    assert re.search(rf"{gateway.gateway.id}\s.*SERVING", out.output), out.output
    assert re.search(r"│ \S+\s+│ arena\s+│ (idle|started)", out.output), out.output  # the worker
    assert re.search(r"│ main\s+│ caper\s+│ v1", out.output), out.output  # the ladder
    assert re.search(r"ArenaNoLiveWorker\s+│ critical │ clear", out.output), out.output
    assert "All evaluated alert conditions are clear." in out.output


def test_an_event_running_with_no_live_worker_exits_1_naming_the_alert(
    redis_server_url: str, redis_client: redis.Redis, gateway: Arena
) -> None:
    create_and_start(redis_client, "spring", "round-robin", ["greedy", "random"])
    out = status(redis_server_url)
    assert out.exit_code == 1, out.output
    assert re.search(r"ArenaNoLiveWorker\s+│ critical │ FIRING", out.output), out.output
    assert (
        "FIRING ArenaNoLiveWorker (critical): no live worker while 1 job queued, "
        "tournament spring running; "
        "runbook: docs/operations.md#arenanoliveworker\n"
    ) in out.output
    assert "Traceback" not in out.output


def test_redis_unreachable_is_one_line_and_exit_1() -> None:
    out = status(f"redis://127.0.0.1:{free_port()}/0")
    assert out.exit_code == 1
    assert out.output.startswith("Error: Redis unreachable: ") and out.output.count("\n") == 1
    found = json.loads(status(f"redis://127.0.0.1:{free_port()}/0", "--json").output)
    assert found["ok"] is False and found["redis"]["reachable"] is False
    assert [a["name"] for a in found["alerts"] if a["firing"]] == ["ArenaRedisUnreachable"]


def test_json_has_the_keys_the_readme_documents(
    redis_server_url: str, redis_client: redis.Redis, gateway: Arena
) -> None:
    # Something in every list: an RQ worker registered as `arena worker` registers (it takes
    # no job, so the events stay running), a tournament and an SPRT test queued, a ladder.
    registered = Worker([arena_queue(redis_client)], connection=redis_client, name="w1")
    registered.register_birth()  # type: ignore[no-untyped-call]
    create_and_start(redis_client, "spring", "round-robin", ["greedy", "random"])
    sprt_runs.start(redis_client, SprtDefinition("ab", "search#3", "search#2"))
    make_ladder(redis_client, "main")
    out = status(redis_server_url, "--json")
    assert out.exit_code == 0, out.output
    found = json.loads(out.output)
    documented = readme_json_example()
    assert key_paths(found) == key_paths(documented)
    assert found["ok"] is True and [e["name"] for e in found["events"]] == ["spring", "ab"]
    assert found["workers"][0]["name"] == "w1" and found["queues"]["arena"]["queued"] >= 2
    assert found["sprt_tests"][0]["state"] == "running"
    registered.register_death()  # type: ignore[no-untyped-call]


def test_a_gateway_listed_without_its_beat_is_down(
    redis_client: redis.Redis, gateway: Arena
) -> None:
    redis_client.zadd(keys.gateways(), {"gone": 1.0})  # what a gateway killed at once leaves
    found = arena_status(redis_client)
    assert firing(found) == {"ArenaGatewayDown": "gateway without a beat: gone"}
    down = next(g for g in found.gateways if g.id == "gone")
    assert not down.serving and down.heartbeat_age_s is None


def test_no_gateway_and_an_event_with_nothing_queued(redis_client: redis.Redis) -> None:
    create_and_start(redis_client, "spring", "round-robin", ["greedy", "random"])
    arena_queue(redis_client).empty()  # type: ignore[no-untyped-call]  # jobs lost: nothing will finish it
    found = firing(arena_status(redis_client))
    assert found["ArenaEventIdle"] == "running with nothing queued or in play: tournament spring"
    assert found["ArenaNoGatewayServing"] == "no gateway beats while Redis is up"
    assert found["ArenaNoLiveWorker"] == "no live worker while tournament spring running"


def readme_json_example() -> dict[str, Any]:
    """The JSON block after the README's `arena status --json` heading."""
    text = README.read_text()
    start = text.index("arena status --json")
    block = re.search(r"```json\n(.*?)\n```", text[start:], re.S)
    assert block is not None, "the README shows no JSON for arena status --json"
    parsed: dict[str, Any] = json.loads(block.group(1))
    return parsed


def key_paths(value: Any, prefix: str = "") -> set[str]:
    """Every key's path: `redis.aof_enabled`, `workers[].name`, `queues.*.failed`."""
    if isinstance(value, list):
        return set().union(*(key_paths(item, prefix + "[]") for item in value)) if value else set()
    if not isinstance(value, dict):
        return set()
    paths = set()
    for key, item in value.items():
        path = f"{prefix}.{key}" if prefix else key
        paths.add(path)
        paths |= key_paths(item, path)
    return paths
