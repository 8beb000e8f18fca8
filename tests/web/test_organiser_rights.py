"""Every POST of the site that is the organiser's refuses a bot owner's session with a 403,
its CSRF token valid: found from the app's routes, so a form added later is checked too."""

from __future__ import annotations

import redis

from arena.store.bots import BotRegistry
from tests.web.signing import csrf_of, sign_in
from tests.web.test_signin_pages import OPEN_FORMS, post_paths, site

OWNERS = ("/sign-out", "/bots/")  # what a bot's owner may post: signing out, their bot's actions


def test_every_organiser_post_refuses_a_bot_owner(redis_client: redis.Redis) -> None:
    _, token = BotRegistry(redis_client).register("alpha")
    web = site(redis_client)
    sign_in(web, token)
    csrf = csrf_of(web.get("/").text)
    organisers = [p for p in post_paths(web) if p not in OPEN_FORMS and not p.startswith(OWNERS)]
    assert {"/new-tournament", "/new-ladder", "/new-sprt", "/sprt/{name}/stop"} <= set(organisers)
    for path in organisers:
        got = web.post(path, data={"csrf": csrf, "name": "x", "bots": "random"})
        assert got.status_code == 403, path
        assert "only the organiser may" in got.text, path
    assert "Signed in as owner of alpha" in web.get("/").text
