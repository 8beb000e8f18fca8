"""The site's sign-in: cookies, CSRF, rights, redirects, escaping and open registration.

Every POST route of the site is found from the app itself, so a form added later is checked
too: without a session it leads to the sign-in page, without the CSRF token it is refused.
"""

from __future__ import annotations

from typing import Any

import pytest
import redis
from starlette.routing import Route
from starlette.testclient import TestClient

from arena.store import keys
from arena.store.bots import BotRegistry
from arena.store.ladders import LadderDefinition, LadderStore, ladder_ref
from arena.store.ratings import RatedResult, RatingStore
from arena.store.results import StoredMatch, match_id
from arena.store.tournaments import TournamentStore
from arena.tournament import MatchResult
from arena.tournament.definition import Format, TournamentDefinition
from arena.web.app import create_app
from arena.web.signer import FORM_COOKIE, SESSION_COOKIE, WebSettings
from tests.web.html_tables import table
from tests.web.signing import csrf_of, sign_in, try_sign_in

ADMIN = "organiser-secret-token"
OPEN_FORMS = {"/sign-in", "/register"}  # sent before a session exists: the form cookie's CSRF
TOKEN_APIS = "/api/"  # authorised by a bot's token in a header, not by the session cookie


def site(client: redis.Redis, **settings: bool) -> TestClient:
    return TestClient(create_app(client, WebSettings(ADMIN, **settings)))


def post_paths(web: TestClient) -> list[str]:
    """The POST routes a session cookie authorises. Those under /api/ take a Bearer token and
    never look at the cookie (tests/web/test_bot_versions_api.py checks they refuse it)."""
    routes = [r for r in web.app.routes if isinstance(r, Route)]  # type: ignore[attr-defined]
    posts = {r.path for r in routes if r.methods and "POST" in r.methods}
    return sorted(path for path in posts if not path.startswith(TOKEN_APIS))


def test_organiser_signs_in_and_out_and_the_session_ends_server_side(
    redis_client: redis.Redis,
) -> None:
    web = site(redis_client)
    assert 'id="sign-in"' in web.get("/").text
    got = try_sign_in(web, ADMIN, "/bots")
    assert (got.status_code, got.headers["location"]) == (303, "/bots")
    cookie = got.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "secure" not in cookie
    session_id = str(web.cookies[SESSION_COOKIE])
    home = web.get("/").text
    assert "Signed in as organiser" in home and ADMIN not in home
    out = web.post("/sign-out", data={"csrf": csrf_of(home)}, follow_redirects=False)
    assert out.status_code == 303
    assert not redis_client.exists(keys.web_session(session_id))
    replayed = TestClient(web.app, cookies={SESSION_COOKIE: session_id})
    assert "Signed in" not in replayed.get("/").text


def test_cookies_are_secure_over_tls_or_behind_it(redis_client: redis.Redis) -> None:
    behind = site(redis_client, behind_tls=True).get("/sign-in")
    assert "; secure" in behind.headers["set-cookie"].lower()
    over_tls = TestClient(create_app(redis_client, WebSettings(ADMIN)), "https://testserver")
    assert "; secure" in try_sign_in(over_tls, ADMIN).headers["set-cookie"].lower()


def test_a_session_id_planted_before_sign_in_is_replaced(redis_client: redis.Redis) -> None:
    web = site(redis_client)
    web.cookies.set(SESSION_COOKIE, "planted-by-an-attacker", domain="testserver.local")
    first = sign_in(web, ADMIN)
    assert first != "planted-by-an-attacker"
    assert not redis_client.exists(keys.web_session("planted-by-an-attacker"))
    assert sign_in(web, ADMIN) != first  # a new id at every sign-in


def test_every_post_without_a_session_leads_to_the_sign_in_page(
    redis_client: redis.Redis,
) -> None:
    web = site(redis_client, open_registration=True)
    paths = post_paths(web)
    assert "/sign-out" in paths
    for path in set(paths) - OPEN_FORMS:
        got = web.post(path, data={"csrf": "x"}, follow_redirects=False)
        assert got.status_code == 303, path
        assert got.headers["location"].startswith("/sign-in?next="), path


def test_every_post_without_its_csrf_token_is_refused(redis_client: redis.Redis) -> None:
    web = site(redis_client, open_registration=True)
    sign_in(web, ADMIN)
    for path in post_paths(web):
        for data in ({}, {"csrf": "wrong"}):
            got = web.post(path, data={**data, "token": ADMIN, "name": "x"})
            assert got.status_code == 403, (path, data)
            assert "CSRF" in got.text
    assert "Signed in as organiser" in web.get("/").text  # none of them signed out


def test_a_sign_in_form_from_another_site_is_refused(redis_client: redis.Redis) -> None:
    web = site(redis_client)
    web.get("/sign-in")
    web.cookies.delete(FORM_COOKIE)
    got = web.post("/sign-in", data={"csrf": "guessed", "token": ADMIN})
    assert got.status_code == 403 and SESSION_COOKIE not in web.cookies


def test_a_wrong_token_shows_the_form_again_without_echoing_it(redis_client: redis.Redis) -> None:
    web = site(redis_client)
    got = try_sign_in(web, "my-wrong-token")
    assert got.status_code == 403 and "neither the admin token" in got.text
    assert "my-wrong-token" not in got.text and SESSION_COOKIE not in web.cookies


def test_an_owner_signed_in_with_a_token_since_replaced_is_signed_out(
    redis_client: redis.Redis,
) -> None:
    bot, token = BotRegistry(redis_client).register("alpha")
    web = site(redis_client)
    sign_in(web, token)
    home = web.get("/").text
    assert "Signed in as owner of alpha" in home
    redis_client.hset(keys.bot(bot.bot_id), "token", "0" * 64)  # as a rotation leaves it
    got = web.post("/sign-out", data={"csrf": csrf_of(home)}, follow_redirects=False)
    assert got.status_code == 303 and got.headers["location"].startswith("/sign-in")
    assert "Signed in" not in web.get("/").text


@pytest.mark.parametrize(
    "target",
    [
        "//evil.example/",
        "https://evil.example/",
        "/\\evil.example",
        "\\\\evil.example",
        "javascript:alert(1)",
        "/\tevil",
        "evil.example",
        "",
    ],
)
def test_next_never_leaves_the_site(redis_client: redis.Redis, target: str) -> None:
    web = site(redis_client)
    got = try_sign_in(web, ADMIN, target)
    assert (got.status_code, got.headers["location"]) == (303, "/")
    form = web.get("/sign-in", params={"next": target}).text
    assert 'name="next" value="/"' in form


def test_markup_in_names_and_next_is_escaped(redis_client: redis.Redis) -> None:
    web = site(redis_client, open_registration=True)
    form = web.get("/sign-in", params={"next": '/"><script>alert(1)</script>'}).text
    assert "<script>alert(1)" not in form and "&lt;script&gt;" in form
    csrf = csrf_of(web.get("/register").text, "register-form")
    got = web.post("/register", data={"csrf": csrf, "name": "<img src=x onerror=alert(1)>"})
    assert got.status_code == 400 and "<img src=x" not in got.text
    assert "&lt;img src=x onerror=alert(1)&gt;" in got.text


def test_registration_is_closed_unless_opened(redis_client: redis.Redis) -> None:
    web = site(redis_client)
    assert web.get("/register").status_code == 404
    assert "/register" not in web.get("/sign-in").text
    assert web.post("/register", data={"name": "alpha"}).status_code == 404
    assert BotRegistry(redis_client).by_name("alpha") is None


def test_open_registration_shows_the_token_once_and_it_signs_in(
    redis_client: redis.Redis,
) -> None:
    web = site(redis_client, open_registration=True)
    assert 'href="/register"' in web.get("/sign-in").text
    csrf = csrf_of(web.get("/register").text, "register-form")
    got = web.post("/register", data={"csrf": csrf, "name": "newbot"})
    assert got.status_code == 200 and got.headers["cache-control"] == "no-store"
    assert 'data-copy="new-token"' in got.text and "shown this once" in got.text
    token = got.text.split('<code id="new-token">')[1].split("</code>")[0]
    bot = BotRegistry(redis_client).authenticate(token)
    assert bot is not None and bot.name == "newbot"
    assert token not in web.get("/bots").text
    sign_in(web, token)
    assert "Signed in as owner of newbot" in web.get("/").text


def rotate(web: TestClient, name: str) -> Any:
    csrf = csrf_of(web.get("/bots").text)
    return web.post(f"/bots/{name}/rotate-token", data={"csrf": csrf}, follow_redirects=False)


def test_an_owner_rotates_their_bot_s_token_and_stays_signed_in(
    redis_client: redis.Redis,
) -> None:
    registry = BotRegistry(redis_client)
    _, old = registry.register("alpha")
    web = site(redis_client)
    first = sign_in(web, old)
    bots_page = web.get("/bots").text
    assert bots_page.count("Rotate token") == 1
    got = rotate(web, "alpha")
    assert got.status_code == 200 and got.headers["cache-control"] == "no-store"
    assert "New token for alpha" in got.text and "old token no longer works" in got.text
    new = got.text.split('<code id="new-token">')[1].split("</code>")[0]
    assert registry.authenticate(old) is None and registry.authenticate(new) is not None
    assert not redis_client.exists(keys.web_session(first))
    assert "Signed in as owner of alpha" in web.get("/").text  # renewed, with a new id
    assert try_sign_in(site(redis_client), old).status_code == 403


def test_an_owner_may_not_rotate_another_bot_s_token(redis_client: redis.Redis) -> None:
    registry = BotRegistry(redis_client)
    _, alpha = registry.register("alpha")
    _, beta = registry.register("beta")
    web = site(redis_client)
    sign_in(web, alpha)
    got = rotate(web, "beta")
    assert got.status_code == 403 and "only beta&#39;s owner or the organiser" in got.text
    assert registry.authenticate(beta) is not None


def test_the_organiser_rotates_any_token_which_ends_its_owner_s_session(
    redis_client: redis.Redis,
) -> None:
    _, alpha = BotRegistry(redis_client).register("alpha")
    owner = site(redis_client)
    sign_in(owner, alpha)
    csrf = csrf_of(owner.get("/bots").text)
    organiser = site(redis_client)
    sign_in(organiser, ADMIN)
    assert organiser.get("/bots").text.count("Rotate token") == 1
    assert rotate(organiser, "alpha").status_code == 200
    assert rotate(organiser, "ghost").status_code == 404
    got = owner.post("/bots/alpha/rotate-token", data={"csrf": csrf}, follow_redirects=False)
    assert got.status_code == 303 and got.headers["location"].startswith("/sign-in")


def test_an_owner_revokes_their_bot_whose_results_stay_marked(
    redis_client: redis.Redis,
) -> None:
    registry = BotRegistry(redis_client)
    _, alpha = registry.register("alpha")
    _, beta = registry.register("beta")
    ladder = LadderDefinition(ladder_ref("main"))
    LadderStore(redis_client).create(ladder)
    RatingStore(redis_client).apply(
        ladder, RatedResult("caper.v1.main.m1", "alpha", "beta", 1.0, 1e9, 2)
    )
    events = TournamentStore(redis_client)
    events.create(TournamentDefinition("cup", Format.ROUND_ROBIN, ("alpha", "beta")))
    played = MatchResult(1, "alpha", "beta", 2.0, 0.0)
    events.record("cup", StoredMatch(match_id("cup", 1, 0), played, (), (), 0))
    web = site(redis_client)
    sign_in(web, beta)
    csrf = csrf_of(web.get("/bots").text)
    refused = web.post("/bots/alpha/revoke", data={"csrf": csrf})
    assert refused.status_code == 403 and registry.authenticate(alpha) is not None
    sign_in(web, alpha)
    csrf = csrf_of(web.get("/bots").text)
    got = web.post("/bots/alpha/revoke", data={"csrf": csrf}, follow_redirects=False)
    assert (got.status_code, got.headers["location"]) == (303, "/bots")
    assert registry.authenticate(alpha) is None
    bots_page = web.get("/bots").text
    assert "Signed in" not in bots_page  # the owner's session ended with the bot
    assert bots_page.count('class="revoked"') == 1 and "revoked " in bots_page
    # Its results stay, its name marked wherever it is listed; the other bot's is not.
    ladder_rows = table(web.get("/ladders/caper.v1.main").text, "ladder")
    assert [row[1] for row in ladder_rows[1:]] == ["alpha (revoked)", "beta"]
    cup = web.get("/tournaments/cup").text
    assert [row[1] for row in table(cup, "standings")[1:]] == ["alpha (revoked)", "beta"]
    assert [row[1] for row in table(cup, "crosstable")[1:]] == ["alpha (revoked)", "beta"]
    assert 'id="revoked"' in web.get("/ladders/caper.v1.main/bots/alpha").text
    assert 'id="revoked"' not in web.get("/ladders/caper.v1.main/bots/beta").text


def test_the_organiser_revokes_any_bot_once(redis_client: redis.Redis) -> None:
    BotRegistry(redis_client).register("alpha")
    web = site(redis_client)
    sign_in(web, ADMIN)
    csrf = csrf_of(web.get("/bots").text)
    assert web.post("/bots/alpha/revoke", data={"csrf": csrf}).status_code == 200
    assert "Signed in as organiser" in web.get("/bots").text
    again = web.post("/bots/alpha/revoke", data={"csrf": csrf})
    assert again.status_code == 409 and "was revoked" in again.text
