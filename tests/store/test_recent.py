"""Each player's recent matches (`arena.store.recent`): pushed in the same atomic step as the
result, so a result stored once is listed once, newest first, a bounded list; and the one-off
backfill of results stored before the lists existed (`arena.store.recent_backfill`)."""

from __future__ import annotations

import pytest
import redis

from arena.store import keys, recent
from arena.store.ladders import LadderDefinition, LadderStore, ladder_ref
from arena.store.ratings import AnyResult, RatedResult, RatingStore, TableResult
from arena.store.recent_backfill import backfill
from arena.store.table_rounds import StoredTable, TableStore
from arena.store.tournaments import StoredMatch, TournamentStore, match_id
from arena.store.values import as_text
from arena.tournament import MatchResult
from arena.tournament.definition import Format, TournamentDefinition


def listed(client: redis.Redis, player: str) -> list[recent.RecentEntry]:
    return recent.read(client, [player], recent.KEPT + 5)[player]


def a_match(round_number: int, seat0: str = "ann", seat1: str = "bob") -> StoredMatch:
    the_id = match_id("cup", round_number, 0)
    result = MatchResult(round_number, seat0, seat1, 1.5, 0.5)
    return StoredMatch(the_id, result, (f"{the_id}.g0", f"{the_id}.g1"), ("normal",) * 2, 3)


def pairs_ladder(
    client: redis.Redis, config: dict[str, str | int] | None = None
) -> LadderDefinition:
    definition = LadderDefinition(ladder_ref("main"), config=config or {"city": "paris"})
    LadderStore(client).create(definition)
    return LadderStore(client).get(definition.ref)


def rated(count: int) -> list[AnyResult]:
    players = ("random", "greedy", "search#3")
    return [
        RatedResult(f"r{n}", players[n % 3], players[(n + 1) % 3], (n % 3) / 2, float(n))
        for n in range(count)
    ]


def test_a_match_recorded_twice_is_listed_once_for_each_player(redis_client: redis.Redis) -> None:
    store = TournamentStore(redis_client)
    assert store.record("cup", a_match(1))
    assert not store.record("cup", a_match(1))  # a retried job: the result stands, listed once
    for player in ("ann", "bob"):
        assert listed(redis_client, player) == [
            recent.RecentEntry(
                "tournament", "cup", "round 1", ("ann", "bob"), (1.5, 0.5), "cup.r1.b0.g0"
            )
        ]


def test_a_table_recorded_twice_is_listed_once(redis_client: redis.Redis) -> None:
    table = StoredTable(
        "pods.r1.t0",
        1,
        ("a", "b", "c"),
        (2.0, 1.0, 0.0),
        (5, 3, 1),
        (2, 1, 0),
        ("g0",),
        ("normal",),
    )
    tables = TableStore(redis_client)
    assert tables.record("pods", table) and not tables.record("pods", table)
    for player in "abc":
        (entry,) = listed(redis_client, player)
        assert (entry.label, entry.sides, entry.scores, entry.game) == (
            "round 1", ("a", "b", "c"), (2.0, 1.0, 0.0), "g0"
        )  # fmt: skip


def test_a_list_is_newest_first_and_keeps_a_few(redis_client: redis.Redis) -> None:
    store = TournamentStore(redis_client)
    for number in range(1, recent.KEPT + 4):
        store.record("cup", a_match(number))
    labels = [e.label for e in listed(redis_client, "ann")]
    assert labels == [f"round {n}" for n in range(recent.KEPT + 3, 3, -1)]


def test_a_rated_result_applied_twice_is_listed_once(redis_client: redis.Redis) -> None:
    ladder, ratings = pairs_ladder(redis_client), RatingStore(redis_client)
    result = RatedResult("m1", "random", "greedy", 0.75, 10.0, games=2)
    assert ratings.apply(ladder, result) is not None and ratings.apply(ladder, result) is None
    ratings.apply_many(ladder, [result])  # and once more, through the batch path
    (entry,) = listed(redis_client, "greedy")
    assert entry == recent.RecentEntry(
        "ladder", "caper.v1.main", "match 1", ("random", "greedy"), (0.75, 0.25), "m1.g0"
    )


@pytest.mark.parametrize("batch", [1, 4, 50])
def test_batches_list_what_one_by_one_updates_list(redis_client: redis.Redis, batch: int) -> None:
    ladder, ratings, results = pairs_ladder(redis_client), RatingStore(redis_client), rated(30)
    for result in results:
        ratings.apply(ladder, result)
    one_by_one = {
        p: redis_client.lrange(keys.recent_matches(p), 0, -1)
        for p in ("random", "greedy", "search#3")
    }
    redis_client.flushdb()
    ladder = pairs_ladder(redis_client)
    RatingStore(redis_client).apply_many(ladder, results[:7], batch=batch)
    RatingStore(redis_client).apply_many(ladder, results, batch=batch)  # the first 7 again
    for player, entries in one_by_one.items():
        assert len(entries) == recent.KEPT
        batched = redis_client.lrange(keys.recent_matches(player), 0, -1)
        assert batched[: recent.KEPT] == entries and len(batched) < 2 * recent.KEPT
    newest = recent.RecentEntry.from_json(as_text(one_by_one["random"][0]))
    assert newest.label == "match 30" and "random" in newest.sides


def test_a_team_result_gives_each_player_its_team_s_score(redis_client: redis.Redis) -> None:
    ladder = pairs_ladder(redis_client, {"city": "paris", "players": 4})
    sides = ((("random", "greedy"), 1.0), (("search#3", "search@5"), 0.0))
    RatingStore(redis_client).apply(ladder, TableResult("t1", sides, 1.0))
    (entry,) = listed(redis_client, "search@5")
    assert entry.sides == ("random", "greedy", "search#3", "search@5")
    assert entry.scores == (1.0, 1.0, 0.0, 0.0)


def test_backfill_lists_results_stored_before_the_lists_existed_once(
    redis_client: redis.Redis,
) -> None:
    ladder, ratings = pairs_ladder(redis_client), RatingStore(redis_client)
    for result in rated(4):
        ratings.apply(ladder, result)
    store = TournamentStore(redis_client)
    store.create(TournamentDefinition("cup", Format.DOUBLE_ROUND_ROBIN, ("random", "greedy")))
    store.record("cup", a_match(1, "random", "greedy"))
    store.record("cup", a_match(2, "greedy", "random"))
    written = {p: listed(redis_client, p) for p in ("random", "greedy", "search#3")}
    redis_client.delete(*(keys.recent_matches(p) for p in written))  # as stored before
    assert not recent.is_ready(redis_client)
    assert backfill(redis_client) == 6
    assert recent.is_ready(redis_client) and backfill(redis_client) == 0  # once
    # A tournament's results, without a clock, count from its creation: here (now) after the
    # ladder's matches (at 0-3 s), as they were written, so the lists are what the writers made.
    assert {p: listed(redis_client, p) for p in written} == written
    store.record("cup", a_match(3, "random", "greedy"))  # after the backfill: pushed once
    labels = [e.label for e in listed(redis_client, "random")]
    assert labels == ["round 3", "round 2", "round 1", "match 4", "match 3", "match 1"]


def test_a_batch_formats_the_entry_text_the_backfill_writes() -> None:
    """The batch writes `ladder_text`, the backfill `RecentEntry.to_json`: the same bytes."""
    odd = 'q"uo\\te\n\tü'
    results: list[AnyResult] = [
        RatedResult("m1", "random", "greedy", 1, 5),
        RatedResult(odd, "ann", odd, 0.75, 5.5, games=0),
        TableResult("t1", ((("a",), 2.0), (("b",), 1.0), (("c",), 2.0)), 7.0, games=3),
        TableResult("t2", ((("a", "b"), 1.0), (("c", "d"), 0.0)), 8.0),
    ]
    for position, result in enumerate(results):
        expected = recent.ladder_entry("caper.v1.main", result, position).to_json()
        assert recent.ladder_text('"caper.v1.main"', result, position) == expected
