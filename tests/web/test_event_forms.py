"""The organiser's event actions on the site: the new-tournament form and the Start, Stop and
Resume buttons, which call the events service and show its messages."""

from __future__ import annotations

from typing import Any

import redis
from starlette.testclient import TestClient

from arena.store.bots import BotRegistry
from arena.store.job_queue import arena_queue
from arena.store.ladders import LadderDefinition, LadderStore, ladder_ref
from arena.store.tournaments import Status, TournamentStore
from arena.web.app import create_app
from arena.web.notice import NOTICE_COOKIE
from arena.web.signer import WebSettings
from tests.web.signing import csrf_of, sign_in

ADMIN = "organiser-secret-token"
FORM = {
    "name": "cup",
    "game": "caper",
    "format": "round-robin",
    "rounds": "",
    "entrants": "random, greedy, search@5",
    "games_per_match": "2",
    "city": "",
    "players": "2",
    "duplicate": "on",
    "time_control": "1000+10000",
    "seed": "",
    "tiebreaks": "",
    "absent_bye_points": "0",
    "swiss_system": "arena",
}


def organiser(client: redis.Redis) -> TestClient:
    web = TestClient(create_app(client, WebSettings(ADMIN)))
    sign_in(web, ADMIN)
    return web


def create(web: TestClient, **changes: str) -> Any:
    csrf = csrf_of(web.get("/new-tournament").text, "new-tournament-form")
    return web.post("/new-tournament", data={**FORM, **changes, "csrf": csrf})


def act(web: TestClient, name: str, action: str, **fields: str) -> Any:
    csrf = csrf_of(web.get(f"/tournaments/{name}").text)
    data = {**fields, "csrf": csrf}
    got = web.post(f"/tournaments/{name}/{action}", data=data, follow_redirects=False)
    assert (got.status_code, got.headers["location"]) == (303, f"/tournaments/{name}")
    return web.get(got.headers["location"])


def notice(html: str) -> str:
    return html.split('id="notice" role="status">')[1].split("</p>")[0]


def test_the_organiser_creates_a_tournament_from_the_form_and_starts_it(
    redis_client: redis.Redis,
) -> None:
    web = organiser(redis_client)
    assert 'href="/new-tournament"' in web.get("/tournaments").text
    created = create(web)
    assert created.status_code == 200, created.text.split('id="form-error">')[-1][:300]
    assert created.url.path == "/tournaments/cup"
    assert notice(created.text) == "Created round-robin cup: 3 entrants, 3 rounds."
    store = TournamentStore(redis_client)
    definition = store.get("cup")
    assert definition.entrants == ("random", "greedy", "search@5")
    assert (definition.games_per_match, definition.config) == (2, {"city": "paris"})
    assert store.status("cup") is Status.CREATED
    assert arena_queue(redis_client).count == 0
    started = act(web, "cup", "start")
    assert notice(started.text) == "Started cup: 3 round(s) scheduled; workers play them."
    assert store.status("cup") is Status.RUNNING and len(store.rounds("cup")) == 3
    assert arena_queue(redis_client).count > 0  # the workers have its matches to play
    assert 'id="notice"' not in web.get("/tournaments/cup").text  # shown once
    assert NOTICE_COOKIE not in web.cookies


def test_a_refusal_of_the_lifecycle_is_shown_and_stop_and_resume_call_the_service(
    redis_client: redis.Redis,
) -> None:
    web = organiser(redis_client)
    create(web)
    act(web, "cup", "start")
    again = act(web, "cup", "start")
    store = TournamentStore(redis_client)
    assert 'class="notice error" id="notice"' in again.text
    assert notice(again.text) == "cup is running (3 of 3 rounds); it has started already"
    stopped = act(web, "cup", "stop")
    assert notice(stopped.text).startswith("Stopped cup: ")
    assert store.status("cup") is Status.STOPPED and arena_queue(redis_client).count == 0
    resumed = act(web, "cup", "resume")
    assert notice(resumed.text).startswith("Resumed cup: ")
    assert store.status("cup") is Status.RUNNING and arena_queue(redis_client).count > 0


def test_the_service_s_validation_error_is_shown_on_the_form_with_the_values(
    redis_client: redis.Redis,
) -> None:
    web = organiser(redis_client)
    got = create(web, format="swiss", rounds="9", entrants="random, greedy, ghost")
    assert got.status_code == 400
    error = got.text.split('id="form-error">')[1].split("</p>")[0]
    assert error == "a Swiss of 3 entrants can have 1 to 3 rounds without rematches, got 9"
    assert 'value="random, greedy, ghost"' in got.text and 'value="9"' in got.text
    assert '<option value="swiss" selected>' in got.text
    unknown = create(web, entrants="random, ghost")
    assert "unknown entrant(s): ghost (register them with `arena bot register`" in unknown.text
    odd = create(web, games_per_match="3")
    assert "games per match must be even, got 3" in odd.text
    cityless = create(web, game="age-of-thieves", city="rome")
    assert "has no cities: --city &#39;rome&#39; does not apply" in cityless.text
    assert "rounds must be a whole number, not &#39;two&#39;" in create(web, rounds="two").text
    assert TournamentStore(redis_client).names() == []


def test_markup_in_an_event_name_is_escaped(redis_client: redis.Redis) -> None:
    web = organiser(redis_client)
    got = create(web, name="<script>alert(1)</script>")
    assert got.status_code == 400 and "<script>alert(1)" not in got.text
    assert "bad tournament name &#39;&lt;script&gt;alert(1)&lt;/script&gt;&#39;" in got.text
    assert 'value="&lt;script&gt;alert(1)&lt;/script&gt;"' in got.text


def test_only_the_organiser_may_create_start_stop_enter_or_withdraw(
    redis_client: redis.Redis,
) -> None:
    create(organiser(redis_client))
    _, token = BotRegistry(redis_client).register("alpha")
    owner = TestClient(create_app(redis_client, WebSettings(ADMIN)))
    nobody = owner.get("/new-tournament", follow_redirects=False)
    assert nobody.headers["location"] == "/sign-in?next=%2Fnew-tournament"
    sign_in(owner, token)
    page = owner.get("/tournaments/cup").text
    assert 'id="event-actions"' not in page
    assert 'href="/new-tournament"' not in owner.get("/tournaments").text
    assert owner.get("/new-tournament").status_code == 403
    csrf = csrf_of(page)
    refused = owner.post("/new-tournament", data={**FORM, "name": "mine", "csrf": csrf})
    assert refused.status_code == 403 and "only the organiser may" in refused.text
    for action in ("start", "stop", "resume", "enter", "withdraw"):
        got = owner.post(f"/tournaments/cup/{action}", data={"csrf": csrf})
        assert got.status_code == 403, action
    store = TournamentStore(redis_client)
    assert store.status("cup") is Status.CREATED and store.names() == ["cup"]


def test_an_action_on_a_tournament_that_does_not_exist_is_a_404(
    redis_client: redis.Redis,
) -> None:
    web = organiser(redis_client)
    csrf = csrf_of(web.get("/tournaments").text)
    got = web.post("/tournaments/ghost/start", data={"csrf": csrf})
    assert got.status_code == 404 and "no tournament named &#39;ghost&#39;" in got.text


def test_the_organiser_enters_and_withdraws_entrants_of_a_swiss_as_the_service_allows(
    redis_client: redis.Redis,
) -> None:
    web = organiser(redis_client)
    create(web, name="open", format="swiss", rounds="2", entrants="random, greedy, search@5")
    page = web.get("/tournaments/open").text
    assert 'id="entrant-form"' in page
    entered = act(web, "open", "enter", entrant="search@9")
    assert notice(entered.text) == "search@9 entered open; it is paired from the next round on."
    twice = act(web, "open", "enter", entrant="search@9")
    assert notice(twice.text) == "&#39;search@9&#39; is already an entrant of &#39;open&#39;"
    left = act(web, "open", "withdraw", entrant="greedy")
    assert notice(left.text) == "greedy withdrew from open; it is not paired again."
    store = TournamentStore(redis_client)
    assert store.late_entrants("open") == ["search@9"]
    assert store.withdrawn("open") == frozenset({"greedy"})
    ghost = act(web, "open", "withdraw", entrant="<b>ghost</b>")
    assert (
        notice(ghost.text)
        == "&#39;&lt;b&gt;ghost&lt;/b&gt;&#39; is not an entrant of &#39;open&#39;"
    )
    create(web)  # a round robin: its schedule is fixed
    assert 'id="entrant-form"' not in web.get("/tournaments/cup").text
    fixed = act(web, "cup", "withdraw", entrant="greedy")
    assert notice(fixed.text).startswith("cup is a round-robin: its schedule is fixed")


def test_the_form_offers_every_option_of_the_cli_and_each_reaches_the_definition(
    redis_client: redis.Redis,
) -> None:
    web = organiser(redis_client)
    form = web.get("/new-tournament").text
    for option in ("swiss", "round-robin", "double-round-robin", "caper-europe", "fide-dutch"):
        assert f'<option value="{option}"' in form, option
    assert '<option value="4"' in form and '<option value="3"' in form
    assert 'name="duplicate" id="duplicate" value="on" checked' in form  # on by default
    assert 'value="1000+10000"' in form  # the CLI's default time control
    got = create(
        web, name="teams", game="caper", city="rome", players="4",
        format="swiss", rounds="2", entrants="random, greedy, search@5, search@9",
        games_per_match="4", duplicate="", time_control="500+2000", seed="12345",
        tiebreaks="wins, buchholz", absent_bye_points="0.5", swiss_system="fide-dutch",
    )  # fmt: skip
    assert got.status_code == 200, got.text.split('id="form-error">')[-1][:300]
    d = TournamentStore(redis_client).get("teams")
    assert (d.game, d.config) == ("caper", {"city": "rome", "players": 4})
    assert (d.rounds, d.games_per_match, d.duplicate, d.seed) == (2, 4, False, 12345)
    assert (d.time_control.move_ms, d.time_control.bank_ms) == (500, 2000)
    assert [t.value for t in d.tiebreaks] == ["wins", "buchholz"]
    assert (d.absent_bye_points, d.swiss_system.value) == (0.5, "fide-dutch")
    tables = create(web, name="snitch", players="3", format="round-robin",
                    entrants="random, greedy, search@5", games_per_match="")  # fmt: skip
    assert tables.status_code == 200, tables.text.split('id="form-error">')[-1][:300]
    assert TournamentStore(redis_client).get("snitch").table_size == 3
    europe = create(web, name="eu", game="caper-europe", city="barcelona")
    assert europe.status_code == 200, europe.text.split('id="form-error">')[-1][:300]
    assert TournamentStore(redis_client).get("eu").config == {"city": "barcelona"}


def test_the_new_options_are_refused_with_the_cli_s_messages(redis_client: redis.Redis) -> None:
    web = organiser(redis_client)
    clock = create(web, time_control="fast")
    assert "--time-control is MOVE_MS+BANK_MS, e.g. 1000+10000, not &#39;fast&#39;" in clock.text
    assert 'value="fast"' in clock.text  # what was typed stays
    tiebreak = create(web, tiebreaks="wins, luck")
    assert "unknown tie-break &#39;luck&#39;: choose from buchholz" in tiebreak.text
    assert "seed must be a whole number, not &#39;-3&#39;" in create(web, seed="-3").text
    assert "seed must be between 0 and 2147483647" in create(web, seed="2147483648").text
    assert "players must be a whole number" in create(web, players="many").text
    unchecked = create(web, duplicate="")
    assert unchecked.status_code == 200
    assert TournamentStore(redis_client).get("cup").duplicate is False


def test_the_form_offers_the_ladders_and_a_rated_event_links_to_its_ladder(
    redis_client: redis.Redis,
) -> None:
    ladder = LadderDefinition(ladder_ref("main"))
    LadderStore(redis_client).create(ladder)
    web = organiser(redis_client)
    form = web.get("/new-tournament").text
    assert '<option value="" selected>none: not rated</option>' in form
    assert f'<option value="main">{ladder.ref} 2 players</option>' in form
    refused = create(web, players="4", rated="main")
    assert refused.status_code == 400
    assert "rates games with players 2, but this event&#39;s have 4" in refused.text
    assert '<option value="main" selected>' in refused.text  # kept as typed
    created = create(web, rated="main")
    assert created.url.path == "/tournaments/cup"
    assert TournamentStore(redis_client).get("cup").rating_ladder == ladder.ref.slug
    assert f'Rated in ladder <a href="/ladders/{ladder.ref.slug}">' in created.text
