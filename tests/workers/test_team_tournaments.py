"""The 4-player team game (V11) as a two-sided tournament: each entrant plays both seats of its
team, on real worker processes and a real Redis server."""

from __future__ import annotations

import json

import pytest
import redis

from arena.cli import tournaments
from arena.games.record import GameRecord, replay
from arena.services import events
from arena.store import keys
from arena.store.tournaments import Status, TournamentStore
from arena.store.values import as_text
from tests.workers.conftest import StartWorker
from tests.workers.tournaments import create_and_start, wait_until_over

pytestmark = pytest.mark.timeout(300)

TEAMS = ["random", "greedy", "search#4", "search#6"]


def test_a_swiss_of_team_games_finishes_with_each_team_in_both_of_its_seats(
    redis_client: redis.Redis, start_worker: StartWorker
) -> None:
    start_worker("team-a"), start_worker("team-b")
    create_and_start(redis_client, "teams", "swiss", TEAMS, rounds=2, players=4)
    assert wait_until_over(redis_client, "teams", timeout_s=240) is Status.FINISHED
    store = TournamentStore(redis_client)
    results = store.results("teams")
    assert len(results) == 4 and [r.number for r in store.rounds("teams")] == [1, 2]
    points: dict[str, float] = dict.fromkeys(TEAMS, 0.0)
    for match in results.values():
        r = match.result
        assert r.game_points0 + r.game_points1 == 1, "one duplicate pair: one point"
        points[r.seat0] += _match_points(r.game_points0, r.game_points1)
        points[r.seat1] += _match_points(r.game_points1, r.game_points0)
        first, second = (_record(redis_client, g) for g in match.game_ids)
        assert sorted(first.players) == sorted([r.seat0, r.seat1] * 2), "a team plays both seats"
        # the duplicate pair: the same deal, the teams swapped
        assert first.seed == second.seed and first.config == second.config == {
            "city": "paris",
            "players": 4,
        }
        assert [{r.seat0: r.seat1, r.seat1: r.seat0}[p] for p in first.players] == list(
            second.players
        )
    rows = tournaments.standings_table(redis_client, "teams")
    assert rows.row_count == 4
    exported = json.loads(events.export(redis_client, "teams", "json"))
    assert {s["entrant"]: s["points"] for s in exported["standings"]} == {
        e: float(points[e]) for e in TEAMS
    }
    ranks = [s["points"] for s in sorted(exported["standings"], key=lambda s: s["rank"])]
    assert ranks == sorted(ranks, reverse=True)


def _match_points(mine: float, theirs: float) -> float:
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def _record(client: redis.Redis, game_id: str) -> GameRecord:
    stored = client.get(keys.game_record(game_id))
    assert stored is not None, f"no record of game {game_id}"
    record = GameRecord.loads(as_text(stored))
    _, result = replay(record)  # raises unless the stored result is what the actions give
    assert result is not None and record.termination == "normal"
    return record
