"""The site's icon: browsers ask for /favicon.ico on every site, and a 404 there was the only
error in a browser's console."""

from __future__ import annotations

import redis
from starlette.testclient import TestClient

from arena.web.app import create_app


def test_the_favicon_is_served_and_every_page_links_it(redis_client: redis.Redis) -> None:
    web = TestClient(create_app(redis_client))
    icon = web.get("/favicon.ico")
    assert icon.status_code == 200
    assert icon.headers["content-type"].startswith("image/svg+xml")
    assert icon.text.startswith("<svg")
    linked = web.get("/static/favicon.svg")
    assert linked.status_code == 200 and linked.content == icon.content
    assert '<link rel="icon" type="image/svg+xml" href="/static/favicon.svg">' in web.get("/").text
