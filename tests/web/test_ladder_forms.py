"""The organiser's ladder actions on the site: the New ladder form (every option of
`arena ladder create`, refused with the command's own messages), and on a ladder's page its
built-in bots, Stop and Resume, which call the ladders service; and who may do any of it."""

from __future__ import annotations

import html
from typing import Any

import pytest
import redis
from starlette.testclient import TestClient

from arena.services import ladders
from arena.store.bots import BotRegistry
from arena.store.job_queue import arena_queue
from arena.store.ladders import LadderStore, ladder_ref
from arena.tournament.lifecycle import State
from arena.web.app import create_app
from arena.web.signer import WebSettings
from tests.cli.refusals import arena
from tests.web.signing import csrf_of, sign_in

ADMIN = "organiser-secret-token"
FORM = {
    "name": "main",
    "game": "caper",
    "k": "32",
    "tau": "0.5",
    "provisional_rd": "110",
    "bots": "random,greedy",
    "remote": "on",
    "city": "",
    "players": "2",
    "games_per_match": "",
    "time_control": "1000+10000",
    "seed": "",
}
MAIN = "/ladders/caper.v1.main"


def organiser(client: redis.Redis) -> TestClient:
    web = TestClient(create_app(client, WebSettings(ADMIN)))
    sign_in(web, ADMIN)
    return web


def create(web: TestClient, **changes: str) -> Any:
    csrf = csrf_of(web.get("/new-ladder").text, "new-ladder-form")
    return web.post("/new-ladder", data={**FORM, **changes, "csrf": csrf})


def act(web: TestClient, action: str, **fields: str) -> Any:
    csrf = csrf_of(web.get(MAIN).text)
    got = web.post(f"{MAIN}/{action}", data={**fields, "csrf": csrf}, follow_redirects=False)
    assert (got.status_code, got.headers["location"]) == (303, MAIN)
    return web.get(got.headers["location"])


def notice(page: str) -> str:
    return html.unescape(page.split('id="notice" role="status">')[1].split("</p>")[0])


def form_error(page: str) -> str:
    return html.unescape(page.split('id="form-error">')[1].split("</p>")[0])


def cli_refusal(url: str, *args: str) -> str:
    """The one-line message the command refuses with."""
    out = arena(url, *args)
    assert out.exit_code == 1 and "Traceback" not in out.output, out.output
    return " ".join(out.output.split()).removeprefix("Error: ")


def test_the_form_offers_the_cli_s_defaults_and_every_option_reaches_the_ladder(
    redis_client: redis.Redis,
) -> None:
    web = organiser(redis_client)
    assert 'href="/new-ladder"' in web.get("/ladders").text
    form = web.get("/new-ladder").text
    for field, value in (("k", "32"), ("tau", "0.5"), ("provisional_rd", "110")):
        assert f'name="{field}" id="{field}" value="{value}"' in form, field
    assert 'value="random,greedy"' in form and 'id="remote" value="on" checked' in form
    got = create(
        web, name="main", city="rome", players="4", k="16", tau="0.3", provisional_rd="90",
        bots="greedy, search#8, greedy", remote="", games_per_match="4",
        time_control="500+3000", seed="777",
    )  # fmt: skip
    assert got.status_code == 200 and got.url.path == MAIN, got.text[:300]
    d = LadderStore(redis_client).find("main")
    assert (d.params.k, d.params.glicko.tau, d.params.provisional_rd) == (16, 0.3, 90)
    assert (dict(d.config), d.bots, d.remote) == ({"city": "rome", "players": 4},
                                                   ("greedy", "search#8"), False)  # fmt: skip
    assert (d.games_per_match, d.move_ms, d.bank_ms, d.seed) == (4, 500, 3000, 777)
    assert notice(got.text) == f"{ladders.created(d)}."
    assert "777" not in got.text  # its seed fixes the deals to come
    tables = create(web, name="snitch", players="3", bots="random,greedy,search#4")
    assert tables.status_code == 200, form_error(tables.text)
    assert LadderStore(redis_client).find("snitch").tables
    europe = create(web, name="eu", game="caper-europe", city="barcelona")
    assert europe.status_code == 200, form_error(europe.text)
    assert LadderStore(redis_client).find("eu").config == {"city": "barcelona"}


@pytest.mark.parametrize(
    ("changes", "cli_args"),
    [
        ({"k": "-1"}, ["--k", "-1"]),
        ({"games_per_match": "3"}, ["--games-per-match", "3"]),
        ({"players": "5"}, ["--players", "5"]),
        ({"bots": "random,ghost"}, ["--bots", "random,ghost"]),
        (
            {"game": "age-of-thieves", "city": "rome"},
            ["--game", "age-of-thieves", "--city", "rome"],
        ),
        ({"time_control": "fast"}, ["--time-control", "fast"]),
        ({"name": "<b>x</b>"}, []),
    ],
)
def test_a_refusal_is_the_cli_s_message_on_the_form_with_what_was_typed(
    redis_client: redis.Redis, redis_server_url: str, changes: dict[str, str], cli_args: list[str]
) -> None:
    got = create(organiser(redis_client), **changes)
    assert got.status_code == 400
    name = changes.get("name", "main")
    message = cli_refusal(redis_server_url, "ladder", "create", name, *cli_args)
    assert form_error(got.text) == message
    for field, value in changes.items():
        if field != "players":  # a choice of three, not typed
            assert f'value="{html.escape(value)}"' in got.text  # what was typed, escaped
    assert "<b>x</b>" not in got.text
    assert LadderStore(redis_client).all() == []


def test_a_name_taken_is_refused(redis_client: redis.Redis) -> None:
    web = organiser(redis_client)
    create(web)
    assert form_error(create(web).text) == "ladder main (caper rules v1) already exists"


def test_the_organiser_chooses_the_bots_stops_and_resumes_a_ladder(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    web = organiser(redis_client)
    create(web)
    page = web.get(MAIN).text
    assert 'id="ladder-actions"' in page and 'id="run-hint"' in page
    chosen = act(web, "bots", bots="search#8, random")
    store, ref = LadderStore(redis_client), ladder_ref("main")
    assert store.get(ref).bots == ("search#8", "random")
    assert notice(chosen.text) == ladders.plays(store.get(ref))
    wrong = act(web, "bots", bots="random, ghost")
    assert 'class="notice error" id="notice"' in wrong.text
    assert notice(wrong.text) == cli_refusal(
        redis_server_url, "ladder", "bots", "main", "random, ghost"
    )
    assert store.get(ref).bots == ("search#8", "random")
    markup = act(web, "bots", bots="<img src=x onerror=alert(1)>")
    assert "<img src=x" not in markup.text and "&lt;img src=x onerror=alert(1)&gt;" in markup.text
    early = act(web, "stop")
    assert notice(early.text) == cli_refusal(redis_server_url, "ladder", "stop", "main")
    ladders.begin_run(redis_client, ref)  # as `arena ladder run` does
    stopped = act(web, "stop")
    assert notice(stopped.text) == f"{ladders.stopped(ref)}."
    assert store.state(ref) is State.STOPPED
    resumed = act(web, "resume")
    assert notice(resumed.text) == ladders.resumed(ref, 1) and store.state(ref) is State.RUNNING
    missing = web.post("/ladders/caper.v1.ghost/stop", data={"csrf": csrf_of(page)})
    assert missing.status_code == 404 and "no ladder" in missing.text


def test_only_the_organiser_may_create_a_ladder_or_act_on_one(redis_client: redis.Redis) -> None:
    create(organiser(redis_client))
    _, token = BotRegistry(redis_client).register("alpha")
    owner = TestClient(create_app(redis_client, WebSettings(ADMIN)))
    nobody = owner.get("/new-ladder", follow_redirects=False)
    assert nobody.headers["location"] == "/sign-in?next=%2Fnew-ladder"
    sign_in(owner, token)
    page = owner.get(MAIN).text
    assert (
        'id="ladder-actions"' not in page and 'href="/new-ladder"' not in owner.get("/ladders").text
    )
    assert owner.get("/new-ladder").status_code == 403
    csrf = csrf_of(page)
    refused = owner.post("/new-ladder", data={**FORM, "name": "mine", "csrf": csrf})
    assert refused.status_code == 403 and "only the organiser may" in refused.text
    for action in ("bots", "start", "stop", "resume"):
        got = owner.post(f"{MAIN}/{action}", data={"csrf": csrf, "bots": "random"})
        assert got.status_code == 403, action
    assert LadderStore(redis_client).state(ladder_ref("main")) is State.CREATED
    ladder = LadderStore(redis_client).find("main")
    assert [d.ref.name for d in LadderStore(redis_client).all()] == ["main"]
    assert ladder.bots == ("random", "greedy")


def test_the_organiser_starts_a_ladder_on_the_workers_with_the_cli_s_refusals(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    web = organiser(redis_client)
    create(web)
    page = web.get(MAIN).text
    assert 'id="start"' in page and "arena ladder run" not in page
    assert '<dd id="in-flight">0 of 2</dd>' in page
    forged = web.post(f"{MAIN}/start", data={"csrf": "forged"}, follow_redirects=False)
    assert forged.status_code == 403
    store, ref = LadderStore(redis_client), ladder_ref("main")
    assert store.state(ref) is State.CREATED and arena_queue(redis_client).count == 0
    started = act(web, "start")
    assert notice(started.text) == f"{ladders.started(ref, 1)}."
    assert store.state(ref) is State.RUNNING and arena_queue(redis_client).count == 1
    assert '<dd id="in-flight">1 of 2</dd>' in started.text, "queued for the workers"
    again = act(web, "start")
    assert notice(again.text) == cli_refusal(redis_server_url, "ladder", "start", "main")
    assert "it has started already" in notice(again.text)
    act(web, "stop")
    stopped = act(web, "start")
    assert notice(stopped.text) == cli_refusal(redis_server_url, "ladder", "start", "main")
    assert "resume it to go on" in notice(stopped.text)
    assert arena_queue(redis_client).count == 1, "a refused start queues nothing"
