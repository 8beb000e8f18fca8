"""Ratings through the Redis store: the maths, exactly once, leaderboards, history, bad input."""

from __future__ import annotations

import random

import pytest
import redis

from arena.bots import BotSpecError
from arena.games import get_game
from arena.ratings import InvalidKFactorError, InvalidResultError
from arena.ratings.ladder import LadderParams, Standing
from arena.store import keys
from arena.store.ladders import (
    LadderDefinition,
    LadderError,
    LadderStore,
    UnknownBotError,
    UnknownLadderError,
    ladder_ref,
)
from arena.store.ratings import RatedResult, RatingStore
from arena.store.ratings.records import hash_mapping, standing_fields
from tests.store.ratings_helpers import BUILTINS, make_ladder, register, snapshot


def test_glickmans_example_through_the_store(redis_client: redis.Redis) -> None:
    ladder = make_ladder(redis_client)
    register(redis_client, "p", "o1", "o2", "o3")
    seeded = {
        "p": Standing(rating=1500, rd=200),
        "o1": Standing(rating=1400, rd=30),
        "o2": Standing(rating=1550, rd=100),
        "o3": Standing(rating=1700, rd=300),
    }
    for player, standing in seeded.items():  # as if earlier results had left them there
        redis_client.hset(
            keys.ladder_standing(ladder.ref.slug, player),
            mapping=hash_mapping(standing_fields(standing)),
        )
    period = [
        RatedResult("g1", "p", "o1", 1.0, 1.0),
        RatedResult("g2", "o2", "p", 1.0, 2.0),
        RatedResult("g3", "p", "o3", 0.0, 3.0),
    ]
    store = RatingStore(redis_client)
    applied = store.apply_period(ladder, period)
    assert applied is not None and applied.position == 0
    p = store.standing(ladder, "p")
    assert p.rating == pytest.approx(1464.05, abs=0.01)
    assert p.rd == pytest.approx(151.52, abs=0.01)
    assert p.volatility == pytest.approx(0.05999, abs=1e-5)
    assert p == applied.after["p"]  # what was stored is exactly what was computed
    assert [r.period for r in store.results(ladder)] == ["g1", "g1", "g1"]
    assert [e["result"] for e in store.history(ladder, "p")] == ["g1", "g2", "g3"]


def test_elo_is_symmetric_and_conserves_the_sum(redis_client: redis.Redis) -> None:
    ladder = make_ladder(redis_client, k=24)
    store, rng = RatingStore(redis_client), random.Random(5)
    for index in range(60):
        a, b = rng.sample(BUILTINS, 2)
        applied = store.apply(
            ladder, RatedResult(f"r{index}", a, b, rng.choice((0, 0.5, 1)), index)
        )
        assert applied is not None
        gain_a = applied.after[a].elo - applied.before[a].elo
        gain_b = applied.after[b].elo - applied.before[b].elo
        assert gain_a == pytest.approx(-gain_b, abs=1e-9)
    board = store.leaderboard(ladder)
    assert len(board) == len(BUILTINS)
    assert sum(s.elo for _, s in board) == pytest.approx(1500 * len(BUILTINS), abs=1e-9)
    assert sum(s.games for _, s in board) == 120
    # The same result told from the other seat rates both players identically.
    other = make_ladder(redis_client, "mirror", k=24)
    store.apply(ladder, RatedResult("x", "random", "greedy", 0.75, 99.0))
    store.apply(other, RatedResult("x", "greedy", "random", 0.25, 99.0))
    fresh = make_ladder(redis_client, "fresh", k=24)
    store.apply(fresh, RatedResult("x", "random", "greedy", 0.75, 99.0))
    assert store.standings(other, ["random", "greedy"]) == store.standings(
        fresh, ["random", "greedy"]
    )


def test_a_result_applied_twice_changes_nothing(redis_client: redis.Redis) -> None:
    ladder = make_ladder(redis_client)
    store = RatingStore(redis_client)
    result = RatedResult("match-1", "random", "greedy", 0.0, 10.0, games=2)
    assert store.apply(ladder, result) is not None
    before = snapshot(redis_client, ladder)
    assert store.apply(ladder, result) is None
    assert store.apply(ladder, RatedResult("match-1", "greedy", "random", 1.0, 11.0)) is None
    assert snapshot(redis_client, ladder) == before
    # A period is rated whole or not at all.
    with pytest.raises(InvalidResultError, match="already rated"):
        store.apply_period(ladder, [result, RatedResult("match-2", "random", "greedy", 1, 12)])
    assert snapshot(redis_client, ladder) == before


def test_leaderboards_history_and_provisional_flag(redis_client: redis.Redis) -> None:
    ladder = make_ladder(redis_client)
    store = RatingStore(redis_client)
    for index in range(3):
        store.apply(ladder, RatedResult(f"r{index}", "greedy", "random", 1.0, float(index)))
    names = [name for name, _ in store.leaderboard(ladder, "elo")]
    assert names == ["greedy", "random"]
    assert len(store.leaderboard(ladder, "rd", limit=1)) == 1
    greedy = store.standing(ladder, "greedy")
    assert (greedy.games, greedy.wins, greedy.win_rate) == (3, 3, 1.0)
    assert greedy.provisional(ladder.params)  # three results leave the deviation high
    history = store.history(ladder, "greedy")
    assert [e["position"] for e in history] == [0, 1, 2]
    assert history[-1]["elo"] == greedy.elo and history[-1]["opponent"] == "random"
    assert redis_client.zscore(keys.ladder_board(ladder.ref.slug, "elo"), "greedy") == greedy.elo
    with pytest.raises(ValueError, match="unknown leaderboard"):
        store.leaderboard(ladder, "luck")


def test_unknown_ladder_unknown_bot_and_bad_constants(redis_client: redis.Redis) -> None:
    store = RatingStore(redis_client)
    ghost = LadderDefinition(ladder_ref("ghost"))
    with pytest.raises(UnknownLadderError, match=r"unknown ladder ghost .*known ladders: none"):
        store.apply(ghost, RatedResult("r", "random", "greedy", 1.0, 0.0))
    ladder = make_ladder(redis_client)
    with pytest.raises(UnknownLadderError, match="known ladders: main"):
        LadderStore(redis_client).get(ladder_ref("ghost"))
    with pytest.raises(UnknownBotError, match="unknown bot 'nobody'"):
        store.apply(ladder, RatedResult("r", "nobody", "greedy", 1.0, 0.0))
    with pytest.raises(BotSpecError, match="bad budget"):
        store.apply(ladder, RatedResult("r", "search@0", "greedy", 1.0, 0.0))
    with pytest.raises(UnknownBotError, match="no rated result"):
        store.history(ladder, "greedy")
    assert redis_client.llen(keys.ladder_log(ladder.ref.slug)) == 0
    with pytest.raises(InvalidKFactorError):
        LadderParams(k=-1)
    with pytest.raises(LadderError, match="already exists"):
        make_ladder(redis_client)
    with pytest.raises(LadderError, match="bad ladder name"):
        ladder_ref("no spaces")
    with pytest.raises(UnknownBotError, match="unknown built-in bot"):
        LadderStore(redis_client).set_bots(ladder.ref, ["random", "nobot"])
    with pytest.raises(InvalidResultError):
        RatedResult("r", "random", "random", 1.0, 0.0)


def test_ladders_are_keyed_by_game_rules_version_and_name(redis_client: redis.Redis) -> None:
    ladders = LadderStore(redis_client)
    current = make_ladder(redis_client)
    version = get_game("caper").rules_version
    old = LadderDefinition(ladder_ref("main", rules_version=version - 1), LadderParams(k=10))
    ladders.create(old)
    assert ladders.get(ladder_ref("main")) == current
    assert ladders.get(ladder_ref("main", rules_version=version - 1)).params.k == 10
    assert [str(ref) for ref in ladders.refs()] == [
        f"main (caper rules v{version - 1})",
        f"main (caper rules v{version})",
    ]
    updated = ladders.set_bots(current.ref, ["search#10"])
    assert updated.bots == ("search#10",) and updated.params == current.params
