"""Matches of more than two seats through real Redis (built-in bots), and one remote bot holding
several seats of one game through a real gateway: each seat gets its own requests."""

from __future__ import annotations

import json

import pytest
import redis

from arena.games.api import Config, ConfigError
from arena.games.caper import CAPER
from arena.gateway.testing import running_arena
from arena.play.match import play_match
from arena.referee.referee import FaultPolicy, Termination
from arena.referee.scoring import score_entrants, score_match
from arena.referee.seats import layout, lineup
from arena.store import keys
from tests.gateway.rawbot import RawBot

pytestmark = pytest.mark.timeout(180)
POLICY = FaultPolicy(move_ms=5000, bank_ms=5000, max_strikes=3, grace_ms=5000)


def stored_players(client: redis.Redis, game_id: str) -> list[str]:
    record = client.get(keys.game_record(game_id))
    assert record is not None
    return list(json.loads(record)["players"])


def test_V11_a_team_match_is_a_duplicate_pair_with_the_teams_swapped(
    redis_client: redis.Redis,
) -> None:
    config: Config = {"city": "london", "players": 4}
    outcomes = play_match(redis_client, CAPER, config, ["greedy", "random"], 2, 9, POLICY, "t1")
    assert [o.termination for o in outcomes] == [Termination.NORMAL] * 2
    assert stored_players(redis_client, "t1.g0") == ["greedy", "random", "greedy", "random"]
    assert stored_players(redis_client, "t1.g1") == ["random", "greedy", "random", "greedy"]
    points = score_match(outcomes, ["greedy", "random"], duplicate=True).game_points
    assert sum(points) == 1.0


def test_V12_a_table_match_plays_each_deal_in_every_rotation(redis_client: redis.Redis) -> None:
    config: Config = {"city": "paris", "players": 3}
    players = ["greedy", "random", "random/2"]
    outcomes = play_match(redis_client, CAPER, config, players, 6, 4, POLICY, "t2")
    assert [o.record.seed for o in outcomes] == [4, 4, 4, 5, 5, 5]
    for deal in (0, 3):
        seated = [stored_players(redis_client, f"t2.g{deal + r}") for r in range(3)]
        assert all(sorted(seats.index(p) for seats in seated) == [0, 1, 2] for p in players)
    lineups = [lineup(players, index % 3) for index in range(6)]
    scored = score_entrants([o.result for o in outcomes], lineups, layout(CAPER, config))
    assert [s.games for s in scored] == [6, 6, 6] and sum(s.wins for s in scored) == 6


def test_a_match_with_the_wrong_number_of_players_is_refused_before_any_game(
    redis_client: redis.Redis,
) -> None:
    config: Config = {"city": "paris", "players": 3}
    with pytest.raises(ConfigError, match="needs 3 players, not 2"):
        play_match(redis_client, CAPER, config, ["greedy", "random"], 3, 1, POLICY, "t3")
    assert redis_client.get(keys.game_record("t3.g0")) is None


def test_a_remote_bot_holding_both_seats_gets_separate_requests_for_each(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    with running_arena(redis_server_url) as arena:
        bot = RawBot(arena.target, arena.register_bot("twin")).start()
        assert bot.welcomed.wait(10), bot.error
        outcomes = arena.play_match("twin", "twin", games=1, seed=2)
        assert outcomes[0].termination is Termination.NORMAL
        started = [m.game_started for m in bot.of_kind("game_started")]
        assert sorted(s.seat for s in started) == [0, 1]
        requests = [m.decision_request for m in bot.of_kind("decision_request")]
        ids = [r.request_id for r in requests]
        assert len(ids) == len(set(ids)) == len(outcomes[0].record.actions), "one id a decision"
        assert {r.seat for r in requests} == {0, 1}
        assert all(r.observation.caper.seat == r.seat for r in requests)
        bot.close()
