"""The workers page on a real Redis with real registered RQ workers (registered as `arena
worker` registers; they take no job, so what is queued stays queued)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from uuid import uuid4

import pytest
import redis
from playwright.sync_api import Browser
from rq import Worker
from starlette.testclient import TestClient

from arena.bench.worker_fleet import register_busy_workers
from arena.metrics.recorder import record_voided
from arena.services.status import MachinesStatus, WorkerState
from arena.store.job_queue import arena_queue
from arena.web.app import create_app
from arena.web.workers import worker_grid
from tests.web.browser import serve
from tests.web.html_tables import column, table
from tests.web.test_phone_browser import PHONE, right_edge
from tests.workers.tournaments import create_and_start


@contextmanager
def registered(client: redis.Redis, name: str) -> Iterator[Worker]:
    worker = Worker([arena_queue(client)], connection=client, name=name)
    worker.register_birth()  # type: ignore[no-untyped-call]
    try:
        yield worker
    finally:
        worker.register_death()  # type: ignore[no-untyped-call]


def workers_page(client: redis.Redis) -> str:
    response = TestClient(create_app(client), raise_server_exceptions=False).get("/workers")
    assert response.status_code == 200, response.text
    return response.text


def test_the_page_shows_each_live_worker_its_state_and_the_queue_depths(
    redis_client: redis.Redis,
) -> None:
    create_and_start(redis_client, "spring", "round-robin", ["greedy", "random"])
    record_voided(redis_client, "caper", 3)
    with registered(redis_client, "w1") as worker:
        worker.set_state("idle")
        html = workers_page(redis_client)
    workers = table(html, "workers")
    assert workers[0][:2] == ["worker", "state"]
    assert [row[:2] for row in workers[1:]] == [["w1", "idle"]]
    assert workers[1][2] == "—"  # it plays nothing
    assert workers[1][3].endswith(" s ago")
    queued = arena_queue(redis_client).count
    assert queued >= 1
    assert column(html, "queues", "queue") == ["arena"]
    assert column(html, "queues", "queued") == [str(queued)]
    assert column(html, "queues", "failed") == ["0"]
    assert table(html, "voided")[1:] == [["caper", "3"]]
    assert 'href="/workers"' in html  # in the site's navigation


def test_a_worker_gone_leaves_the_page_saying_there_is_none(redis_client: redis.Redis) -> None:
    with registered(redis_client, "w1"):
        pass
    html = workers_page(redis_client)
    assert 'id="no-workers"' in html and 'id="workers"' not in html


def test_a_worker_name_with_markup_is_escaped(redis_client: redis.Redis) -> None:
    name = '<script>alert("w")</script>'
    with registered(redis_client, name):
        html = workers_page(redis_client)
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(&#34;w&#34;)&lt;/script&gt;" in html
    assert column(html, "workers", "worker") == [name]


def test_what_a_worker_plays_links_to_the_event(redis_client: redis.Redis) -> None:
    def busy(name: str, playing: str | None) -> WorkerState:
        return WorkerState(name, ["arena"], "busy", "job", playing, 0.5)

    status = MachinesStatus(0.0, [busy("a", "tournament cup"), busy("b", "sprt t1"),
                                  busy("c", None)], {}, {}, {})  # fmt: skip
    cells = [row[2] for row in worker_grid(status).rows]
    assert [(c.text, c.url) for c in cells] == [
        ("tournament cup", "/tournaments/cup"),
        ("sprt t1", "/sprt/t1"),
        ("—", None),
    ]


@pytest.mark.timeout(120)
def test_on_a_phone_the_workers_table_fits_with_its_heartbeat_in_view(
    browser: Browser, artifacts: Path, redis_client: redis.Redis
) -> None:
    create_and_start(redis_client, "spring", "round-robin", ["greedy", "random"])
    phone = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True).new_page()
    with registered(redis_client, uuid4().hex), serve(create_app(redis_client)) as server:
        phone.goto(server.url + "/workers")
        phone.screenshot(path=artifacts / "workers-phone.png", full_page=True)
        assert phone.locator("#workers th:text-is('heartbeat')").is_visible()
        assert not phone.locator("#workers th:text-is('job')").is_visible()  # a wide column
        for grid in ("#workers", "#queues"):
            assert right_edge(phone, grid) <= PHONE["width"], f"{grid} runs off the screen"


def test_busy_workers_show_the_match_they_play(redis_client: redis.Redis) -> None:
    fleet = register_busy_workers(redis_client, 2, "cup")  # as `arena bench web` registers them
    try:
        html = workers_page(redis_client)
    finally:
        for worker in fleet:
            worker.register_death()  # type: ignore[no-untyped-call]
    assert column(html, "workers", "state") == ["busy", "busy"]
    assert column(html, "workers", "playing") == ["tournament cup", "tournament cup"]
    assert column(html, "workers", "job") == ["match_cup_r1_b0", "match_cup_r1_b1"]
    assert 'href="/tournaments/cup"' in html
