"""What the match layer records in Redis for the metrics: games, latencies, timeouts, voids."""

from __future__ import annotations

import time
from typing import Any

import pytest
import redis

import arena.play.match as match_module
from arena.games import get_game
from arena.metrics.recorder import (
    DECISION_LATENCY,
    DECISION_TIMEOUTS,
    FORFEITS,
    GAMES,
    VOIDED,
    read_counter,
    read_histogram,
)
from arena.play.match import play_match
from arena.play.metrics import GameMetrics
from arena.referee.referee import (
    UNTIMED,
    Decision,
    DecisionRequest,
    Fault,
    GameInfo,
    GameOutcome,
    referee_game,
)


def test_a_match_records_each_game_and_its_decisions(redis_client: redis.Redis) -> None:
    outcomes = play_match(
        redis_client,
        get_game("caper"),
        {"city": "paris"},
        ("random", "greedy"),
        2,
        5,
        UNTIMED,
        "m1",
    )
    games = read_counter(redis_client, GAMES)
    assert sum(games.values()) == 2
    assert all(labels[0] == "caper" and labels[2] == "normal" for labels in games)
    latency = read_histogram(redis_client, DECISION_LATENCY)[("caper", "builtin")]
    decisions = sum(len(o.record.actions) for o in outcomes)
    assert sum(latency.counts) == decisions and latency.total > 0


class _Sleepy:
    """A remote-like seat that never answers in time."""

    name = "sleepy"

    def start(self, info: GameInfo) -> None:
        pass

    def decide(self, request: DecisionRequest) -> Decision:
        return Decision(fault=Fault.TIMEOUT)

    def finish(self, info: GameInfo, outcome: GameOutcome) -> None:
        pass


def test_timeouts_and_forfeits_are_counted(redis_client: redis.Redis) -> None:
    observed = GameMetrics(redis_client, "caper")
    game = get_game("caper")
    seats = observed.wrap([_Sleepy(), _Sleepy()])
    outcome = referee_game(game, {"city": "paris"}, 1, seats, UNTIMED, "g", timer=time.perf_counter)
    observed.finished(outcome)
    assert read_counter(redis_client, DECISION_TIMEOUTS) == {("caper",): 1}
    assert read_counter(redis_client, FORFEITS) == {("caper", "timeout"): 1}
    assert ("caper", "remote") in read_histogram(redis_client, DECISION_LATENCY)


def test_games_cut_short_by_a_failure_are_voided(
    redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    played: list[int] = []

    def failing(*args: Any, **kwargs: Any) -> GameOutcome:
        if played:
            raise redis.ConnectionError("Redis went away")
        played.append(1)
        return referee_game(*args, **kwargs)

    monkeypatch.setattr(match_module, "referee_game", failing)
    with pytest.raises(redis.ConnectionError):
        play_match(
            redis_client,
            get_game("caper"),
            {"city": "paris"},
            ("random", "greedy"),
            4,
            1,
            UNTIMED,
            "m",
        )
    # The retried match replays the finished first game as well as the interrupted second one.
    assert read_counter(redis_client, VOIDED) == {("caper",): 2}
    assert sum(read_counter(redis_client, GAMES).values()) == 1
