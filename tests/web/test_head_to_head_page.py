"""The head-to-head page renders what `arena.services.head_to_head` finds (tested there), links
each match to its event and first game, refuses a bot against itself, and escapes names."""

from __future__ import annotations

import redis
from starlette.testclient import TestClient

from arena.store.results import StoredMatch, match_id
from arena.store.tournaments import TournamentStore
from arena.tournament import MatchResult, Pairing, Round
from arena.tournament.definition import Format, TournamentDefinition
from arena.web.app import create_app
from tests.web.html_tables import hrefs, table


def test_the_page_shows_the_score_the_elo_and_each_match_linked(
    redis_client: redis.Redis,
) -> None:
    store = TournamentStore(redis_client)
    store.create(TournamentDefinition("cup", Format.ROUND_ROBIN, ("random", "greedy")))
    for number, points in enumerate([(2.0, 0.0), (1.5, 0.5)], start=1):
        the_id = match_id("cup", number, 0)
        games = (f"{the_id}.g0", f"{the_id}.g1")
        result = MatchResult(number, "greedy", "random", *points)
        store.save_round("cup", Round(number, (Pairing("greedy", "random"),)))
        store.record("cup", StoredMatch(the_id, result, games, ("normal", "normal"), 0))
    web = TestClient(create_app(redis_client))

    got = web.get("/head-to-head", params={"a": "random", "b": "greedy"})

    assert got.status_code == 200
    assert table(got.text, "meetings")[1:] == [
        ["cup", "round 1", "0 - 2", "2", "replay"],
        ["cup", "round 2", "0.5 - 1.5", "2", "replay"],
    ]
    assert "0.5 of 4 points" in got.text and "(95% interval -" in got.text
    links = hrefs(got.text)
    assert {"/tournaments/cup", "/games/cup.r2.b0.g0"} <= set(links)
    assert "/head-to-head?a=greedy&amp;b=random" in got.text  # the other side's view
    assert "Head to head" in web.get("/").text  # in the site's menu


def test_the_form_alone_a_refusal_and_escaped_names(redis_client: redis.Redis) -> None:
    web = TestClient(create_app(redis_client))
    assert 'id="head-to-head-form"' in web.get("/head-to-head").text
    itself = web.get("/head-to-head", params={"a": "random", "b": "random"})
    assert itself.status_code == 400 and "random never plays itself" in itself.text
    marked = web.get("/head-to-head", params={"a": "<b>bold</b>", "b": 'x"><script>'})
    assert marked.status_code == 200 and "have played no two-sided match" in marked.text
    assert "<b>bold" not in marked.text and "<script>" not in marked.text
    assert "&lt;b&gt;bold&lt;/b&gt;" in marked.text
