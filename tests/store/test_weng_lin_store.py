"""Weng-Lin through the Redis store: tables and teams, exactly once, rebuild, concurrency."""

from __future__ import annotations

import json
import random

import pytest
import redis

from arena.ratings import InvalidResultError
from arena.ratings.ladder import LadderParams, Outcome, Standing, rate_outcomes
from arena.store import keys
from arena.store.ladders import LadderDefinition, LadderError, LadderStore, ladder_ref
from arena.store.ratings import RatedResult, RatingStore, TableResult
from arena.store.ratings.rebuild import rebuild
from arena.store.ratings.records import hash_mapping
from arena.store.server import connect
from tests.store.ratings_helpers import BUILTINS, run_writers, snapshot

Config = dict[str, str | int]
SNITCH: Config = {"city": "paris", "players": 3}
TEAMS: Config = {"city": "paris", "players": 4}
PAIRS: Config = {"city": "paris"}


def make(client: redis.Redis, name: str, config: Config) -> LadderDefinition:
    definition = LadderDefinition(ladder_ref(name), config=config)
    LadderStore(client).create(definition)
    return LadderStore(client).get(definition.ref)


def table(result_id: str, *sides: tuple[str, float], at: float = 1.0) -> TableResult:
    return TableResult(result_id, tuple(((name,), score) for name, score in sides), at)


def test_the_ladder_definition_fixes_the_players_and_so_the_sides(
    redis_client: redis.Redis,
) -> None:
    # 2-, 3- and 4-player Caper share rules version 1: each ladder keeps to one player count.
    snitch, teams = make(redis_client, "snitch", SNITCH), make(redis_client, "teams", TEAMS)
    pairs = make(redis_client, "pairs", PAIRS)
    assert (snitch.players, snitch.sides) == (3, 3)
    assert (teams.players, teams.sides) == (4, 2)  # an entrant plays both seats of a team
    assert (pairs.players, pairs.sides) == (2, 2)
    with pytest.raises(LadderError, match="players must be 2, 3 or 4"):
        LadderDefinition(ladder_ref("five"), config={"city": "paris", "players": 5})


def test_a_three_player_table_is_rated_once_and_rebuilt_exactly(
    redis_client: redis.Redis,
) -> None:
    ladder = make(redis_client, "snitch", SNITCH)
    store = RatingStore(redis_client)
    first = table("t1", ("random", 12.0), ("greedy", 30.0), ("search#3", 3.0))
    applied = store.apply(ladder, first)
    assert applied is not None
    expected = rate_outcomes({}, [first.outcome()], LadderParams())
    assert store.standings(ladder, ["random", "greedy", "search#3"]) == expected
    assert store.apply(ladder, first) is None  # the same id again: nothing changes
    store.apply(ladder, table("t2", ("random", 9.0), ("greedy", 9.0), ("search#3", 20.0), at=2))
    assert [r.result_id for r in store.results(ladder)] == ["t1", "t2"]
    assert isinstance(store.results(ladder)[1], TableResult)
    greedy = store.standing(ladder, "greedy")
    assert (greedy.games, greedy.wins, greedy.draws, greedy.losses) == (2, 1, 0, 1)
    assert greedy.elo == 1500.0  # tables are rated by Weng-Lin only
    history = store.history(ladder, "random")
    assert [(e["place"], e["score"], e["opponent"]) for e in history] == [
        (2, 0.5, "greedy, search#3"),
        (2, 0.25, "greedy, search#3"),  # tied second with greedy
    ]
    assert history[-1]["mu"] == store.standing(ladder, "random").mu
    board = [name for name, _ in store.leaderboard(ladder, "ordinal")]
    ordinals = [store.standing(ladder, name).ordinal for name in board]
    assert ordinals == sorted(ordinals, reverse=True) and len(board) == 3
    live = snapshot(redis_client, ladder)
    assert rebuild(redis_client, ladder, write=False).identical
    redis_client.delete(keys.ladder_skill(ladder.ref.slug))
    assert rebuild(redis_client, ladder, write=False).mismatched == ("greedy", "random", "search#3")
    assert rebuild(redis_client, ladder).written
    assert snapshot(redis_client, ladder) == live  # every key, byte for byte


def test_a_two_against_two_team_result(redis_client: redis.Redis) -> None:
    ladder = make(redis_client, "teams", TEAMS)
    store = RatingStore(redis_client)
    # Two sides, each a team of two bots (the shape a team game of distinct bots would give).
    result = TableResult("m1", ((("random", "greedy"), 1.0), (("search#3", "search@5"), 0.0)), 1.0)
    store.apply(ladder, result)
    after = store.standings(ladder, ["random", "greedy", "search#3", "search@5"])
    assert after == rate_outcomes({}, [result.outcome()], LadderParams())
    assert after["random"].mu == after["greedy"].mu > 25.0 > after["search#3"].mu
    assert store.history(ladder, "random")[0]["opponent"] == "search#3, search@5"
    # A team entrant holding both seats is one bot: an ordinary two-sided result.
    store.apply(ladder, RatedResult("m2", "random", "greedy", 0.75, 2.0))
    assert store.standing(ladder, "random").elo > 1500.0
    assert rebuild(redis_client, ladder, write=False).identical


def test_a_pair_updates_weng_lin_next_to_elo_and_glicko(redis_client: redis.Redis) -> None:
    ladder = make(redis_client, "pairs", PAIRS)
    store = RatingStore(redis_client)
    store.apply(ladder, RatedResult("r1", "random", "greedy", 0.0, 1.0))
    expected = rate_outcomes({}, [Outcome.pair("random", "greedy", 0.0)], LadderParams())
    greedy = store.standing(ladder, "greedy")
    assert greedy == expected["greedy"] and greedy.mu > 25.0 and greedy.elo > 1500.0
    summary = redis_client.hget(keys.ladder_skill(ladder.ref.slug), "greedy")
    assert summary == f"{greedy.mu!r} {greedy.sigma!r}".encode()


def test_results_of_the_wrong_shape_are_refused_and_write_nothing(
    redis_client: redis.Redis,
) -> None:
    snitch, pairs = make(redis_client, "snitch", SNITCH), make(redis_client, "pairs", PAIRS)
    store = RatingStore(redis_client)
    before = snapshot(redis_client, snitch), snapshot(redis_client, pairs)
    with pytest.raises(InvalidResultError, match=r"has 2 sides, but .* \(3 players\) have 3"):
        store.apply(snitch, RatedResult("r", "random", "greedy", 1.0, 0.0))
    with pytest.raises(InvalidResultError, match=r"has 3 sides, but .* \(2 players\) have 2"):
        store.apply(pairs, table("t", ("random", 1.0), ("greedy", 2.0), ("search#3", 0.0)))
    with pytest.raises(InvalidResultError, match="at most one seat"):
        table("t", ("random", 1.0), ("random", 2.0), ("greedy", 0.0))
    with pytest.raises(InvalidResultError, match="finite"):
        table("t", ("random", float("inf")), ("greedy", 2.0), ("search#3", 0.0))
    with pytest.raises(LadderError, match="unknown bot 'ghost'"):
        store.apply(snitch, table("t", ("random", 1.0), ("ghost", 2.0), ("greedy", 0.0)))
    assert (snapshot(redis_client, snitch), snapshot(redis_client, pairs)) == before


def test_ratings_stored_before_weng_lin_read_as_its_initial_values(
    redis_client: redis.Redis,
) -> None:
    ladder = make(redis_client, "pairs", PAIRS)
    slug = ladder.ref.slug
    # A ladder definition and a standing as an older arena stored them.
    fixed = json.loads(ladder.fixed_json())
    del fixed["weng_lin"]
    redis_client.hset(keys.ladder(slug), "definition", json.dumps(fixed))
    fields = dict.fromkeys(("rating", "rd", "volatility", "points"), "1.0")
    fields |= dict.fromkeys(("games", "wins", "draws", "losses"), "0") | {"elo": "1510.0"}
    redis_client.hset(keys.ladder_standing(slug, "random"), mapping=hash_mapping(fields))
    old = LadderStore(redis_client).get(ladder.ref)
    assert old.params.weng_lin == LadderParams().weng_lin
    standing = RatingStore(redis_client).standing(old, "random")
    assert (standing.elo, standing.mu, standing.sigma) == (1510.0, Standing().mu, Standing().sigma)


PROCESSES = 4
PER_PROCESS = 25


def _rate_tables(url: str, slug: str, worker: int) -> None:
    client = connect(url)
    ladder = LadderStore(client).get_slug(slug)
    store, rng = RatingStore(client), random.Random(worker)
    for index in range(PER_PROCESS):
        names = rng.sample(BUILTINS, 3)
        scores = [float(rng.randrange(4)) for _ in names]  # ties are frequent
        store.apply(ladder, table(f"w{worker}.{index}", *zip(names, scores, strict=True)))
        shared = table(f"shared.{index % 5}", ("random", 1.0), ("greedy", 2.0), ("search#3", 0.0))
        store.apply(ladder, shared)  # every process tries: each counts once
    client.close()


def test_concurrent_table_updates_lose_nothing_and_rebuild_equals_live(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    ladder = make(redis_client, "snitch", SNITCH)
    run_writers(redis_server_url, ladder.ref.slug, _rate_tables, PROCESSES)
    store = RatingStore(redis_client)
    results = store.results(ladder)
    ids = [r.result_id for r in results]
    assert len(ids) == len(set(ids)) == PROCESSES * PER_PROCESS + 5
    board = dict(store.leaderboard(ladder, "ordinal"))
    assert sum(s.games for s in board.values()) == 3 * len(results)
    # Replaying the log in its order through the maths gives exactly the stored standings.
    current: dict[str, Standing] = {}
    for result in results:
        current.update(rate_outcomes(current, [result.outcome()], LadderParams()))
    assert current == board
    report = rebuild(redis_client, ladder, write=False)
    assert report.identical and report.results == len(results)
