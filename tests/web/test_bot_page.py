"""One bot's page: its state (connected, offline, hosted, revoked), its Hello, a hosted bot's
versions, its recent matches, its ratings on every ladder it played and head to head against
its opponents; the rotate and revoke forms for its owner and the organiser only. Real Redis,
the site over HTTP (Starlette's test client)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from starlette.testclient import TestClient

from arena.services import hosted
from arena.store import keys
from arena.store.bots import BotRegistry
from arena.store.ladders import LadderDefinition, LadderStore, ladder_ref
from arena.store.ratings import RatedResult, RatingStore, TableResult
from arena.web.app import create_app
from arena.web.signer import WebSettings
from tests.hosted.programs import version_cache
from tests.web.html_tables import hrefs, table
from tests.web.signing import sign_in
from tests.web.test_bot_versions_page import PYTHON_BOT, tar_gz

ADMIN = "organiser-secret-token"


@pytest.fixture
def cache() -> Iterator[Path]:
    with version_cache() as folder:
        yield folder


def site(client: redis.Redis) -> TestClient:
    return TestClient(create_app(client, WebSettings(ADMIN)))


def words(html: str) -> str:
    """The page's text, tags dropped and spaces squeezed, as a person reads it."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def connect(client: redis.Redis, name: str, version: str, games: list[str]) -> None:
    bot = BotRegistry(client).by_name(name)
    assert bot is not None
    BotRegistry(client).record_hello(bot.bot_id, games, version)
    client.set(keys.bot_online(bot.bot_id), "session", ex=30)


def rate(client: redis.Redis) -> None:
    """ann beats bob on a two-sided ladder and comes second at a table of three."""
    main = LadderDefinition(ladder_ref("main"))
    pods = LadderDefinition(ladder_ref("pods"), config={"city": "paris", "players": 3})
    for ladder in (main, pods):
        LadderStore(client).create(ladder)
    RatingStore(client).apply(main, RatedResult("m1", "ann", "bob", 1.0, time.time(), games=2))
    sides = ((("greedy",), 5.0), (("ann",), 2.0), (("random",), 1.0))
    RatingStore(client).apply(pods, TableResult("t1", sides, time.time(), games=3))


def test_a_connected_bot_shows_its_hello_matches_ratings_and_opponents(
    redis_client: redis.Redis,
) -> None:
    for name in ("ann", "bob"):
        BotRegistry(redis_client).register(name)
    connect(redis_client, "ann", "ann-2.1", ["caper"])
    rate(redis_client)
    got = site(redis_client).get("/bots/ann")
    assert got.status_code == 200
    text = got.text
    assert '<dd id="state"><span class="online">connected</span>' in text
    assert '<dd id="hello-version">ann-2.1</dd>' in text and '<dd id="plays">caper</dd>' in text
    assert 'id="revoked"' not in text and 'id="newest"' not in text
    ratings = table(text, "ratings")
    assert [row[0] for row in ratings[1:]] == ["main (caper rules v1)", "pods (caper rules v1)"]
    main = RatingStore(redis_client).standing(LadderDefinition(ladder_ref("main")), "ann")
    assert ratings[1][1] == f"{main.elo:.1f}" and ratings[2][1] == "-"
    assert ratings[1][6] == "1" and ratings[1][7] == "1-0-0"
    links = hrefs(text)
    assert "/ladders/caper.v1.main/bots/ann" in links and "/ladders/caper.v1.pods/bots/ann" in links
    assert "main (caper rules v1) match 1: 1 - 0 vs bob" in words(text)
    assert "match 1: share 0.5, place 2 vs greedy, random" in words(text)
    # Head to head against its one two-sided opponent; a table has none.
    assert links.count("/head-to-head?a=ann&b=bob") == 2  # the match's link and the list's
    assert "ann vs greedy" not in text


def test_an_offline_bot_that_never_played(redis_client: redis.Redis) -> None:
    BotRegistry(redis_client).register("cat")
    text = site(redis_client).get("/bots/cat").text
    assert '<dd id="state"><span class="offline">offline</span>' in text
    assert '<dd id="hello-version">-</dd>' in text and '<dd id="plays">any</dd>' in text
    assert "no rated result on any ladder yet" in text and 'id="versus"' not in text


def test_a_hosted_bot_shows_its_newest_and_played_versions(
    redis_client: redis.Redis, cache: Path
) -> None:
    bot, token = BotRegistry(redis_client).register("host")
    first = hosted.store_version(redis_client, bot, tar_gz(PYTHON_BOT)).version
    anonymous = site(redis_client).get("/bots/host").text
    assert (
        f'id="state"><span class="online hosted" title="version {first.version}">hosted</span>'
        in anonymous
    )
    assert f'<dd id="newest"><code>{first.version}</code></dd>' in anonymous
    assert f'<dd id="played"><code>{first.version}</code></dd>' in anonymous
    assert "/bots/host/versions" not in hrefs(anonymous)  # the versions page is its owner's
    owner = site(redis_client)
    sign_in(owner, token)
    assert "/bots/host/versions" in hrefs(owner.get("/bots/host").text)


def test_a_revoked_bot_is_marked_and_offers_no_action(redis_client: redis.Redis) -> None:
    registry = BotRegistry(redis_client)
    bot, _ = registry.register("old")
    registry.revoke(bot.bot_id)
    web = site(redis_client)
    sign_in(web, ADMIN)
    text = web.get("/bots/old").text
    assert 'id="revoked"' in text and "offline" in text
    assert "Rotate token" not in text and "Revoke</button>" not in text


def test_only_the_owner_and_the_organiser_see_the_forms(redis_client: redis.Redis) -> None:
    registry = BotRegistry(redis_client)
    _, alpha = registry.register("alpha")
    _, beta = registry.register("beta")
    seen = {}
    for who, token in (("owner", alpha), ("organiser", ADMIN), ("other", beta), ("anon", "")):
        web = site(redis_client)
        if token:
            sign_in(web, token)
        text = web.get("/bots/alpha").text
        seen[who] = ("/bots/alpha/rotate-token" in text, "/bots/alpha/revoke" in text)
    assert seen == {
        "owner": (True, True),
        "organiser": (True, True),
        "other": (False, False),
        "anon": (False, False),
    }


def test_the_forms_on_the_page_rotate_and_revoke(redis_client: redis.Redis) -> None:
    _, token = BotRegistry(redis_client).register("alpha")
    web = site(redis_client)
    sign_in(web, token)
    page = web.get("/bots/alpha").text
    csrf = page.split('name="csrf" value="')[1].split('"')[0]
    rotated = web.post("/bots/alpha/rotate-token", data={"csrf": csrf})
    assert rotated.status_code == 200 and "New token for alpha" in rotated.text
    assert BotRegistry(redis_client).authenticate(token) is None


def test_a_bot_name_and_a_hello_version_cannot_inject_markup(redis_client: redis.Redis) -> None:
    """A registered name holds no markup (the registry refuses it), but a URL can name any
    bot, and a bot's Hello can report any version: both come back escaped."""
    BotRegistry(redis_client).register("ann")
    connect(redis_client, "ann", "<script>alert(1)</script>", ["caper"])
    web = site(redis_client)
    for path in ("/bots", "/bots/ann"):
        text = web.get(path).text
        assert "<script>alert" not in text and "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    unknown = web.get("/bots/%3Cb%20id%3D%22x%22%3Eevil%3C%2Fb%3E")
    assert unknown.status_code == 404 and '<b id="x">' not in unknown.text
    assert "&lt;b id=&#34;x&#34;&gt;evil&lt;/b&gt;" in unknown.text


def test_an_unknown_name_is_a_404_that_says_so(redis_client: redis.Redis) -> None:
    got = site(redis_client).get("/bots/ghost")
    assert got.status_code == 404 and "there is no bot named &#39;ghost&#39;" in got.text


def test_the_bots_list_links_each_name_to_its_page(redis_client: redis.Redis) -> None:
    for name in ("ann", "bob-2"):
        BotRegistry(redis_client).register(name)
    links = hrefs(site(redis_client).get("/bots").text)
    assert "/bots/ann" in links and "/bots/bob-2" in links
