"""The organiser's SPRT actions on the site: the New SPRT test form (every option of
`arena sprt start`, refused with the command's own messages) and the Stop and Resume buttons,
which call the SPRT service; the page's live JSON; and who may do any of it."""

from __future__ import annotations

import html
from typing import Any

import pytest
import redis
from starlette.testclient import TestClient

from arena.services import sprt
from arena.store.bots import BotRegistry
from arena.store.job_queue import arena_queue
from arena.store.sprt import SprtStore, State
from arena.web.app import create_app
from arena.web.signer import WebSettings
from tests.cli.refusals import arena
from tests.web.signing import csrf_of, sign_in

ADMIN = "organiser-secret-token"
FORM = {
    "name": "ab",
    "test": "greedy",
    "base": "random",
    "game": "caper",
    "city": "",
    "elo0": "0",
    "elo1": "5",
    "alpha": "0.05",
    "beta": "0.05",
    "max_pairs": "",
    "batch_pairs": "8",
    "parallel": "4",
    "seed": "",
}


def organiser(client: redis.Redis) -> TestClient:
    web = TestClient(create_app(client, WebSettings(ADMIN)))
    sign_in(web, ADMIN)
    return web


def start(web: TestClient, **changes: str) -> Any:
    csrf = csrf_of(web.get("/new-sprt").text, "new-sprt-form")
    return web.post("/new-sprt", data={**FORM, **changes, "csrf": csrf})


def act(web: TestClient, name: str, action: str) -> Any:
    csrf = csrf_of(web.get(f"/sprt/{name}").text)
    got = web.post(f"/sprt/{name}/{action}", data={"csrf": csrf}, follow_redirects=False)
    assert (got.status_code, got.headers["location"]) == (303, f"/sprt/{name}")
    return web.get(got.headers["location"])


def notice(page: str) -> str:
    return html.unescape(page.split('id="notice" role="status">')[1].split("</p>")[0])


def form_error(page: str) -> str:
    return html.unescape(page.split('id="form-error">')[1].split("</p>")[0])


def test_the_form_offers_the_cli_s_defaults_and_every_option_reaches_the_test(
    redis_client: redis.Redis,
) -> None:
    web = organiser(redis_client)
    assert 'href="/new-sprt"' in web.get("/sprt").text
    form = web.get("/new-sprt").text
    for field, value in (("elo1", "5"), ("alpha", "0.05"), ("batch_pairs", "8"), ("parallel", "4")):
        assert f'name="{field}" id="{field}" value="{value}"' in form, field
    got = start(
        web, name="ab", test="search#16", base="search#8", game="caper-europe", city="barcelona",
        elo0="-1.5", elo1="2.5", alpha="0.1", beta="0.02", max_pairs="40", batch_pairs="3",
        parallel="2", logistic="on", seed="4242",
    )  # fmt: skip
    assert got.status_code == 200 and got.url.path == "/sprt/ab", got.text[:300]
    d = SprtStore(redis_client).status("ab").definition
    assert (d.test, d.base, d.game, dict(d.config)) == (
        "search#16",
        "search#8",
        "caper-europe",
        {"city": "barcelona"},
    )
    assert (d.elo0, d.elo1, d.alpha, d.beta) == (-1.5, 2.5, 0.1, 0.02)
    assert (d.max_pairs, d.batch_pairs, d.parallel, d.normalized, d.seed) == (40, 3, 2, False, 4242)
    assert notice(got.text) == sprt.started(d, [0, 1])  # the service's message, as the CLI's
    assert "4242" not in got.text  # the seed of a running test fixes its deals to come
    assert len(arena_queue(redis_client).job_ids) == 2  # `parallel` batches for the workers
    fresh = start(web, name="cd")
    assert fresh.status_code == 200
    status = SprtStore(redis_client).status("cd")
    assert status.definition.normalized and status.definition.max_pairs is None


@pytest.mark.parametrize(
    ("changes", "cli_args"),
    [
        ({"base": "greedy"}, ["--base", "greedy"]),
        ({"elo0": "5", "elo1": "0"}, ["--elo0", "5", "--elo1", "0"]),
        ({"alpha": "1.5"}, ["--alpha", "1.5"]),
        ({"test": "ghost"}, ["--test", "ghost"]),
        (
            {"game": "age-of-thieves", "city": "rome"},
            ["--game", "age-of-thieves", "--city", "rome"],
        ),
        ({"name": "<b>x</b>"}, []),
    ],
)
def test_a_refusal_is_the_cli_s_message_on_the_form_with_what_was_typed(
    redis_client: redis.Redis, redis_server_url: str, changes: dict[str, str], cli_args: list[str]
) -> None:
    got = start(organiser(redis_client), **changes)
    assert got.status_code == 400
    name = changes.get("name", "ab")
    args = ["sprt", "start", name, "--test", "greedy", "--base", "random", *cli_args]
    cli = arena(redis_server_url, *args)
    assert cli.exit_code == 1 and "Traceback" not in cli.output
    message = " ".join(cli.output.split()).removeprefix("Error: ")
    assert form_error(got.text) == message
    for value in changes.values():
        assert f'value="{html.escape(value)}"' in got.text  # what was typed, escaped
    assert "<b>x</b>" not in got.text
    assert SprtStore(redis_client).all() == []


def test_numbers_the_cli_would_refuse_are_refused_on_the_form(redis_client: redis.Redis) -> None:
    web = organiser(redis_client)
    assert form_error(start(web, elo1="five").text) == "elo1 must be a number, not 'five'"
    assert form_error(start(web, batch_pairs="0").text) == "batch pairs must be at least 1, got 0"
    assert (
        form_error(start(web, max_pairs="-2").text) == "max pairs must be a whole number, not '-2'"
    )
    blank = start(web, name="blank", parallel="")  # a blank count takes the CLI's default
    assert blank.status_code == 200
    assert SprtStore(redis_client).status("blank").definition.parallel == 4


def test_stop_and_resume_call_the_service_and_a_refusal_is_shown(
    redis_client: redis.Redis,
) -> None:
    web = organiser(redis_client)
    start(web, batch_pairs="2", parallel="3")
    store = SprtStore(redis_client)
    stopped = act(web, "ab", "stop")
    assert notice(stopped.text) == sprt.stopped("ab", 3)
    assert store.status("ab").state is State.STOPPED and not arena_queue(redis_client).job_ids
    assert 'data-live="' not in stopped.text  # nothing to follow while it is stopped
    again = act(web, "ab", "stop")
    assert 'class="notice error" id="notice"' in again.text
    assert notice(again.text).startswith("SPRT ab is stopped")
    resumed = act(web, "ab", "resume")
    assert notice(resumed.text) == sprt.resumed("ab", 3)
    assert store.status("ab").state is State.RUNNING
    assert 'data-live="/sprt/ab/live.json"' in resumed.text
    missing = web.post("/sprt/ghost/stop", data={"csrf": csrf_of(resumed.text)})
    assert missing.status_code == 404 and "no SPRT test" in missing.text


def test_the_live_json_follows_the_stored_counts(redis_client: redis.Redis) -> None:
    web = organiser(redis_client)
    start(web)
    store = SprtStore(redis_client)
    live = web.get("/sprt/ab/live.json")
    assert live.headers["cache-control"] == "no-store"
    assert live.json() == {
        "status": "running", "label": "running", "done": "0", "llr": "0.000", "live": True
    }  # fmt: skip
    number = 0
    while store.apply_pair("ab", number, 4) is not None:
        number += 1
    over = web.get("/sprt/ab/live.json").json()
    assert over["status"] == "finished" and over["label"] == "accepted H1"
    assert over["done"] == str(number) and over["live"] is False
    assert web.get("/sprt/ghost/live.json").status_code == 404


def test_only_the_organiser_may_start_stop_or_resume(redis_client: redis.Redis) -> None:
    start(organiser(redis_client))
    _, token = BotRegistry(redis_client).register("alpha")
    owner = TestClient(create_app(redis_client, WebSettings(ADMIN)))
    nobody = owner.get("/new-sprt", follow_redirects=False)
    assert nobody.headers["location"] == "/sign-in?next=%2Fnew-sprt"
    sign_in(owner, token)
    page = owner.get("/sprt/ab").text
    assert 'id="sprt-actions"' not in page and 'href="/new-sprt"' not in owner.get("/sprt").text
    assert owner.get("/new-sprt").status_code == 403
    csrf = csrf_of(page)
    refused = owner.post("/new-sprt", data={**FORM, "name": "mine", "csrf": csrf})
    assert refused.status_code == 403 and "only the organiser may" in refused.text
    for action in ("stop", "resume"):
        assert owner.post(f"/sprt/ab/{action}", data={"csrf": csrf}).status_code == 403
    assert [s.definition.name for s in SprtStore(redis_client).all()] == ["ab"]
    assert SprtStore(redis_client).status("ab").state is State.RUNNING
