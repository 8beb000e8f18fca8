"""The bots page reads each bot's own recent-matches list and its last ladder history entries
(`arena.store.recent`), not every tournament's and ladder's results; a store written before
those lists existed gets them once, at the first view. Real Redis, the site over HTTP
(Starlette's test client)."""

from __future__ import annotations

import time

import redis
from starlette.testclient import TestClient

from arena.store import keys
from arena.store.bots import BotRegistry
from arena.store.ladders import LadderDefinition, LadderStore, ladder_ref
from arena.store.ratings import RatedResult, RatingStore, TableResult
from arena.store.results import StoredMatch, match_id
from arena.store.tournaments import TournamentStore
from arena.tournament import MatchResult
from arena.tournament.definition import Format, TournamentDefinition
from arena.web.app import create_app
from tests.web.html_tables import table


def recent_column(client: redis.Redis) -> dict[str, str]:
    page = TestClient(create_app(client), raise_server_exceptions=False).get("/bots")
    assert page.status_code == 200
    return {row[0]: row[5] for row in table(page.text, "bots")[1:]}


def play(client: redis.Redis) -> None:
    """ann and bob registered; a round robin's two rounds between them, then a rated ladder
    match of ann against the built-in greedy."""
    registry = BotRegistry(client)
    registry.register("ann")
    registry.register("bob")
    store = TournamentStore(client)
    store.create(TournamentDefinition("cup", Format.DOUBLE_ROUND_ROBIN, ("ann", "bob")))
    for number, seats in ((1, ("ann", "bob")), (2, ("bob", "ann"))):
        the_id = match_id("cup", number, 0)
        result = MatchResult(number, *seats, 2.0, 0.0)
        store.record("cup", StoredMatch(the_id, result, (f"{the_id}.g0",), ("normal",), 4))
    ladder = LadderDefinition(ladder_ref("main"))
    LadderStore(client).create(ladder)
    RatingStore(client).apply(ladder, RatedResult("m1", "ann", "greedy", 0.5, time.time(), games=2))


def forget_results(client: redis.Redis) -> None:
    """Delete every stored result: a page that still lists them did not read them."""
    client.delete(
        keys.tournament_results("cup"), keys.ladder_log("caper.v1.main"), keys.tournament("cup")
    )


def test_the_page_lists_recent_matches_without_reading_any_result(
    redis_client: redis.Redis,
) -> None:
    BotRegistry(redis_client).register("cat")
    assert recent_column(redis_client) == {"cat": "none yet"}  # a new arena's lists: complete
    play(redis_client)
    forget_results(redis_client)
    shown = recent_column(redis_client)
    assert shown["bob"] == (
        "cup round 2: 2 - 0 vs ann · game · head to head "
        "cup round 1: 0 - 2 vs ann · game · head to head"
    )
    assert shown["ann"].startswith("main (caper rules v1) match 1: 0.5 - 0.5 vs greedy · game")


def test_a_store_from_before_the_lists_gets_them_at_the_first_view(
    redis_client: redis.Redis,
) -> None:
    play(redis_client)
    expected = recent_column(redis_client)
    # As an older arena left it: results stored, no lists, not marked ready.
    redis_client.delete(keys.recent_ready(), *(keys.recent_matches(p) for p in ("ann", "bob")))
    assert recent_column(redis_client)["ann"] == expected["ann"]
    forget_results(redis_client)  # filled once: later views read the lists
    assert recent_column(redis_client) == expected


def test_a_ladder_of_tables_shows_the_bot_s_share_and_place(redis_client: redis.Redis) -> None:
    """The rating history keeps the bot's share of the table and its place, not the other
    sides' scores: the page shows those."""
    BotRegistry(redis_client).register("ann")
    ladder = LadderDefinition(ladder_ref("pods"), config={"city": "paris", "players": 3})
    LadderStore(redis_client).create(ladder)
    sides = ((("greedy",), 5.0), (("ann",), 2.0), (("random",), 1.0))
    RatingStore(redis_client).apply(ladder, TableResult("t1", sides, time.time(), games=3))
    assert recent_column(redis_client)["ann"] == (
        "pods (caper rules v1) match 1: share 0.5, place 2 vs greedy, random · game"
    )


def test_the_overview_counts_registered_and_connected_bots(redis_client: redis.Redis) -> None:
    registry = BotRegistry(redis_client)
    for name in ("ann", "bob"):
        registry.register(name)
    bob = registry.by_name("bob")
    assert bob is not None
    redis_client.set(keys.bot_online(bob.bot_id), "session", ex=30)
    home = TestClient(create_app(redis_client)).get("/").text
    assert '<dt>registered bots</dt><dd><a href="/bots">2</a></dd>' in home
    assert "<dt>connected now</dt><dd>1</dd>" in home
