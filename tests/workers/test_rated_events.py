"""An event rated into a ladder: each finished match is rated in the ladder's pool, by the
ladder's own rule, once per result id; an unrated event leaves the pool alone."""

from __future__ import annotations

from collections import Counter

import redis

from arena.services import event_runs, events
from arena.services.head_to_head import TOURNAMENT, head_to_head
from arena.store import keys
from arena.store.encounters import table_encounters
from arena.store.ladders import LadderDefinition, LadderStore, ladder_ref
from arena.store.ratings import RatedResult, RatingStore, TableResult
from arena.store.ratings.rebuild import rebuild
from arena.store.results import match_id
from arena.store.tournaments import Status, TournamentStore
from tests.workers.tournaments import FAST, work_in_process

FIELD = ["random", "greedy", "search#8"]


def _ladder(client: redis.Redis) -> LadderDefinition:
    ladder = LadderDefinition(ladder_ref("main"), bots=("random", "greedy"))
    LadderStore(client).create(ladder)
    return ladder


def _event(client: redis.Redis, name: str, rated: str | None) -> None:
    events.create(
        client, name, "round-robin", FIELD, None, "caper", "paris", 2, True, FAST, 7,
        rated=rated,
    )  # fmt: skip


def test_a_rated_round_robin_counts_its_matches_on_the_ladder_once_each(
    redis_client: redis.Redis,
) -> None:
    ladder = _ladder(redis_client)
    _event(redis_client, "rr", "main")
    assert TournamentStore(redis_client).get("rr").rating_ladder == ladder.ref.slug
    event_runs.start(redis_client, "rr")
    event_runs.play(redis_client, "rr", 1, 0)
    # A job that rated its board but died before recording it: the retry replays the board.
    redis_client.hdel(keys.tournament_results("rr"), match_id("rr", 1, 0))
    event_runs.play(redis_client, "rr", 1, 0)
    work_in_process(redis_client)
    store = TournamentStore(redis_client)
    assert store.status("rr") is Status.FINISHED
    ratings = RatingStore(redis_client)
    results = ratings.results(ladder)
    played = store.results("rr")
    assert sorted(r.result_id for r in results) == sorted(played)  # each match once
    assert all(isinstance(r, RatedResult) and r.games == 2 for r in results)
    board = dict(ratings.leaderboard(ladder))
    assert {name: s.games for name, s in board.items()} == dict.fromkeys(FIELD, 2)
    for result in results:  # the ladder's rule: the first player's share of the game points
        match = played[result.result_id].result
        share = match.game_points0 / (match.game_points0 + match.game_points1)
        assert isinstance(result, RatedResult) and result.score_a == share
    assert rebuild(redis_client, ladder, write=False).identical
    # Head to head finds each of the event's matches once, though the ladder holds it too.
    met = head_to_head(redis_client, "random", "greedy").meetings
    assert [(m.kind, m.match in played) for m in met] == [(TOURNAMENT, True)]


def test_an_unrated_event_leaves_the_ratings_untouched(redis_client: redis.Redis) -> None:
    ladder = _ladder(redis_client)
    _event(redis_client, "plain", None)
    event_runs.start(redis_client, "plain")
    work_in_process(redis_client)
    assert TournamentStore(redis_client).status("plain") is Status.FINISHED
    assert RatingStore(redis_client).results(ladder) == []
    assert RatingStore(redis_client).player_count(ladder) == 0


def test_a_rated_event_of_tables_rates_each_table_once_by_weng_lin(
    redis_client: redis.Redis,
) -> None:
    snitch = LadderDefinition(ladder_ref("snitch"), config={"city": "paris", "players": 3})
    LadderStore(redis_client).create(snitch)
    events.create(
        redis_client, "trio", "round-robin", [*FIELD, "random/2"], None, "caper", "paris", 3, True, FAST, 7,
        players=3, rated="snitch",
    )  # fmt: skip
    event_runs.start(redis_client, "trio")
    work_in_process(redis_client)
    assert TournamentStore(redis_client).status("trio") is Status.FINISHED
    tables = table_encounters(redis_client).results("trio")
    results = RatingStore(redis_client).results(snitch)
    assert tables and sorted(r.result_id for r in results) == sorted(tables)
    assert all(isinstance(r, TableResult) and len(r.sides) == 3 for r in results)
    seated = Counter(e for table in tables.values() for e in table.entrants)
    board = RatingStore(redis_client).leaderboard(snitch, "ordinal")
    assert {name: s.games for name, s in board} == dict(seated) and len(tables) > 1
    assert rebuild(redis_client, snitch, write=False).identical
