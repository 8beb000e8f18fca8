"""No page of the site shows a bot's token, its hash, or the seed of a tournament still being
played (it fixes every deal to come), signed in or not, and none of them writes anything."""

from __future__ import annotations

import pytest
import redis
from starlette.testclient import TestClient

from arena.store.bots import BotRegistry, token_hash
from arena.store.ladders import LadderDefinition, LadderStore, ladder_ref
from arena.store.ratings import RatedResult, RatingStore
from arena.web.app import create_app
from arena.web.signer import WebSettings
from tests.web.html_tables import hrefs
from tests.web.signing import sign_in
from tests.workers.tournaments import create_and_start, work_in_process

SEED = 8_675_309_123  # digits no page would show by chance
LADDER_SEED = 5_550_199_777


def every_page(web: TestClient) -> dict[str, str]:
    """Every page the site links to from its overview, followed to the end, with downloads
    and live JSON; the replay pages of games are left to the replay tests."""
    seen: dict[str, str] = {}
    todo = ["/"]
    while todo:
        path = todo.pop()
        if path in seen or path.startswith(("/static/", "/games/")):
            continue
        got = web.get(path)
        assert got.status_code == 200, (path, got.status_code)
        seen[path] = got.text
        todo += [h for h in hrefs(got.text) if h.startswith("/")]
    for name in ("open", "done"):
        seen[f"/tournaments/{name}/live.json"] = web.get(f"/tournaments/{name}/live.json").text
    return seen


@pytest.mark.timeout(120)
def test_no_page_shows_a_token_its_hash_or_a_running_tournament_s_seed(
    redis_client: redis.Redis,
) -> None:
    registry = BotRegistry(redis_client)
    secrets = []
    for name in ("alpha", "beta"):
        _, token = registry.register(name)
        secrets += [token, token_hash(token)]
    alpha_token = secrets[0]
    # A finished tournament, whose pages (and their game links) are listed too.
    create_and_start(redis_client, "done", "round-robin", ["random", "greedy", "search#4"], seed=7)
    work_in_process(redis_client)
    # A running one with the registered bots: round 1 paired, no worker to play it.
    create_and_start(
        redis_client, "open", "swiss", ["alpha", "beta", "random", "greedy"], rounds=2, seed=SEED
    )
    ladder = LadderDefinition(ladder_ref("main"), seed=LADDER_SEED)
    LadderStore(redis_client).create(ladder)
    RatingStore(redis_client).apply(
        ladder, RatedResult("caper.v1.main.m1", "alpha", "beta", 1.0, 1e9, 2)
    )

    pages = every_page(TestClient(create_app(redis_client)))
    for fmt in ("trf", "json", "csv"):
        pages[f"export.{fmt}"] = (
            TestClient(create_app(redis_client)).get(f"/tournaments/open/export.{fmt}").text
        )

    assert {
        "/bots",
        "/bots/alpha",
        "/tournaments/open",
        "/ladders/caper.v1.main/bots/alpha",
    } <= set(pages)
    for path, text in pages.items():
        for secret in [*secrets, str(SEED), str(LADDER_SEED)]:
            assert secret not in text, f"{path} shows a secret"
    assert "alpha" in pages["/bots"] and "alpha" in pages["/tournaments/open"]

    # Signed in, as the organiser and as alpha's owner, the pages show no more.
    settings = WebSettings(admin_token="organiser-secret")
    for token in ("organiser-secret", alpha_token):
        web = TestClient(create_app(redis_client, settings))
        sign_in(web, token)
        signed_in = every_page(web)
        assert "Signed in as" in signed_in["/"]
        assert "Rotate token" in signed_in["/bots/alpha"]  # the forms hold no token either
        for path, text in signed_in.items():
            for secret in [*secrets, "organiser-secret", str(SEED), str(LADDER_SEED)]:
                assert secret not in text, f"{path} shows a secret to a signed-in person"
