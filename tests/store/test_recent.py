"""Each player's recent matches (`arena.store.recent`): a tournament's pushed in the same atomic
step as the result, a ladder's read from the rating histories (the rating path writes nothing
more), so a result stored once is listed once, newest first, a bounded list; and the one-off
backfill of tournament results stored before the lists existed (`arena.store.recent_backfill`)."""

from __future__ import annotations

import dataclasses

import pytest
import redis

from arena.store import keys, recent
from arena.store.encounters import table_encounters
from arena.store.ladders import LadderDefinition, LadderStore, ladder_ref
from arena.store.ratings import AnyResult, RatedResult, RatingStore, TableResult
from arena.store.recent_backfill import backfill
from arena.store.results import StoredMatch, StoredTable, match_id
from arena.store.tournaments import TournamentStore
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
        (entry,) = listed(redis_client, player)
        assert entry.at > 0  # the time it was recorded, to merge with the ladders' results
        assert entry == recent.RecentEntry(
            "tournament", "cup", "round 1", ("ann", "bob"), (1.5, 0.5), "cup.r1.b0.g0", entry.at
        )


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
    tables = table_encounters(redis_client)
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


def test_a_rated_result_applied_twice_is_listed_once_from_the_history(
    redis_client: redis.Redis,
) -> None:
    ladder, ratings = pairs_ladder(redis_client), RatingStore(redis_client)
    result = RatedResult("m1", "random", "greedy", 0.75, 10.0, games=2)
    assert ratings.apply(ladder, result) is not None and ratings.apply(ladder, result) is None
    ratings.apply_many(ladder, [result])  # and once more, through the batch path
    (entry,) = listed(redis_client, "greedy")
    assert entry == recent.RecentEntry(
        "ladder", "caper.v1.main", "match 1", ("greedy", "random"), (0.25, 0.75), "m1.g0", 10.0
    )
    # The rating path writes no list of its own: the page reads what it writes anyway.
    assert not redis_client.exists(*(keys.recent_matches(p) for p in result.players))


@pytest.mark.parametrize("batch", [1, 4, 50])
def test_batches_list_what_one_by_one_updates_list(redis_client: redis.Redis, batch: int) -> None:
    ladder, ratings, results = pairs_ladder(redis_client), RatingStore(redis_client), rated(30)
    for result in results:
        ratings.apply(ladder, result)
    players = ("random", "greedy", "search#3")
    one_by_one = recent.read(redis_client, players, recent.KEPT)
    redis_client.flushdb()
    ladder = pairs_ladder(redis_client)
    RatingStore(redis_client).apply_many(ladder, results[:7], batch=batch)
    RatingStore(redis_client).apply_many(ladder, results, batch=batch)  # the first 7 again
    assert recent.read(redis_client, players, recent.KEPT) == one_by_one
    for entries in one_by_one.values():
        assert len(entries) == recent.KEPT and len(set(entries)) == recent.KEPT
    assert [e.label for e in one_by_one["random"][:2]] == ["match 30", "match 28"]
    assert not redis_client.exists(*(keys.recent_matches(p) for p in players))


def test_a_team_result_gives_each_player_its_team_s_share(redis_client: redis.Redis) -> None:
    ladder = pairs_ladder(redis_client, {"city": "paris", "players": 4})
    sides = ((("random", "greedy"), 1.0), (("search#3", "search@5"), 0.0))
    RatingStore(redis_client).apply(ladder, TableResult("t1", sides, 1.0))
    (entry,) = listed(redis_client, "search@5")
    assert (entry.sides, entry.scores, entry.place) == (
        ("search@5", "random, greedy"), (0.0, 1.0), 0
    )  # fmt: skip


def test_a_table_ladder_lists_the_player_s_share_and_place(redis_client: redis.Redis) -> None:
    """Its history keeps the player's share and place, not the other sides' scores."""
    ladder = pairs_ladder(redis_client, {"city": "paris", "players": 3})
    sides = ((("random",), 2.0), (("greedy",), 5.0), (("search#3",), 1.0))
    RatingStore(redis_client).apply_many(ladder, [TableResult("t1", sides, 4.0, games=3)])
    (entry,) = listed(redis_client, "random")
    assert (entry.label, entry.sides, entry.scores, entry.place, entry.game) == (
        "match 1", ("random", "greedy, search#3"), (0.5,), 2, "t1.g0"
    )  # fmt: skip


def test_tournament_and_ladder_matches_merge_newest_first(redis_client: redis.Redis) -> None:
    ladder, ratings = pairs_ladder(redis_client), RatingStore(redis_client)
    store = TournamentStore(redis_client)
    store.record("cup", a_match(1, "random", "greedy"))
    now = listed(redis_client, "random")[0].at
    ratings.apply(ladder, RatedResult("old", "random", "greedy", 1.0, now - 60))
    ratings.apply(ladder, RatedResult("new", "greedy", "random", 0.0, now + 60))
    labels = [e.label for e in recent.read(redis_client, ["random"], 2)["random"]]
    assert labels == ["match 2", "round 1"]


def test_backfill_lists_tournament_results_stored_before_the_lists_existed_once(
    redis_client: redis.Redis,
) -> None:
    ladder, ratings = pairs_ladder(redis_client), RatingStore(redis_client)
    for result in rated(4):
        ratings.apply(ladder, result)
    store = TournamentStore(redis_client)
    store.create(TournamentDefinition("cup", Format.DOUBLE_ROUND_ROBIN, ("random", "greedy")))
    store.record("cup", a_match(1, "random", "greedy"))
    store.record("cup", a_match(2, "greedy", "random"))
    players = ("random", "greedy", "search#3")
    written = {p: listed(redis_client, p) for p in players}
    redis_client.delete(*(keys.recent_matches(p) for p in written))  # as stored before
    assert not recent.is_ready(redis_client)
    assert backfill(redis_client) == 2  # the ladder's are in its histories already
    assert recent.is_ready(redis_client) and backfill(redis_client) == 0  # once
    # A tournament's results, without a clock, count from its creation: here (now) after the
    # ladder's matches (at 0-3 s), in round order, so the lists are what the writers made.
    created = float(as_text(redis_client.hget(keys.tournament("cup"), "created") or "0"))
    for player, entries in written.items():
        backfilled = listed(redis_client, player)
        assert [dataclasses.replace(e, at=0.0) for e in backfilled] == [
            dataclasses.replace(e, at=0.0) for e in entries
        ]
        assert {e.at for e in backfilled if e.kind == recent.TOURNAMENT} <= {created}
    store.record("cup", a_match(3, "random", "greedy"))  # after the backfill: pushed once
    labels = [e.label for e in listed(redis_client, "random")]
    assert labels == ["round 3", "round 2", "round 1", "match 4", "match 3", "match 1"]


def test_lists_from_before_the_histories_were_read_are_rebuilt_once(
    redis_client: redis.Redis,
) -> None:
    """Lists the rating path used to push onto hold ladder entries (the histories list those
    now) and entries without a time: the first read rebuilds them, a ladder result shows once."""
    ladder = pairs_ladder(redis_client)
    RatingStore(redis_client).apply(ladder, RatedResult("m1", "random", "greedy", 1.0, 5.0))
    store = TournamentStore(redis_client)
    store.create(TournamentDefinition("cup", Format.DOUBLE_ROUND_ROBIN, ("random", "greedy")))
    store.record("cup", a_match(1, "random", "greedy"))
    old = [
        '["ladder", "caper.v1.main", "match 1", ["random", "greedy"], [1.0, 0.0], "m1.g0"]',
        '["tournament", "cup", "round 1", ["random", "greedy"], [1.5, 0.5], "cup.r1.b0.g0"]',
    ]
    redis_client.delete(keys.recent_matches("random"))
    redis_client.rpush(keys.recent_matches("random"), *old)
    redis_client.set("arena:recent-ready", "1")  # the mark those lists had
    assert recent.read(redis_client, ["random"], 5)["random"][1].at == 0.0  # untimed: last
    assert backfill(redis_client) == 1
    shown = [(e.kind, e.label) for e in listed(redis_client, "random")]
    assert shown == [("tournament", "round 1"), ("ladder", "match 1")]
