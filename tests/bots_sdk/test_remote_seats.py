"""Remote SDK bots in 3- and 4-player Caper, end to end: real Redis, the real gateway on loopback,
the Python SDK over gRPC and, for the Swiss, real worker processes.

- V11: a Swiss of 4-player team games in which one remote bot is a team, holding both its seats;
  the tournament finishes, its records replay, and the SDK played each seat with its own instance.
- V4, V9: every DecisionRequest a remote bot receives, in every seat of both variants, carries
  that seat's own hand and nothing it may not see; GameStarted.seats names every seat right."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
import redis

from arena.games.caper import CAPER
from arena.games.record import replay
from arena.gateway.testing import TEST_POLICY, Arena, running_arena
from arena.play.match import play_match
from arena.referee.referee import Termination
from arena.referee.seats import winning_seats
from arena.store.tournaments import Status, TournamentStore
from tests.bots_sdk.wire_views import (
    CapturingClient,
    SeatRecorder,
    check_views,
    instances_by_seat,
    stored_record,
)
from tests.workers.conftest import StartWorker
from tests.workers.conftest import start_worker as start_worker  # the real-worker fixture
from tests.workers.tournaments import create_and_start, wait_until_over

pytestmark = pytest.mark.timeout(300)


class Remote:
    """A registered SeatRecorder played by the SDK's client on a thread, through the gateway."""

    def __init__(self, arena: Arena, name: str) -> None:
        self.name, self.bot = name, SeatRecorder()
        self.client = CapturingClient(self.bot, arena.target, arena.register_bot(name))
        self.thread = threading.Thread(target=self.client.run, daemon=True)
        self.thread.start()
        assert self.client.connected.wait(20), "the SDK bot did not connect"

    def stop(self) -> None:
        self.client.stop()
        self.thread.join(20)
        assert not self.thread.is_alive()


@contextmanager
def remote_bot(redis_url: str, name: str) -> Iterator[tuple[Arena, Remote]]:
    with running_arena(redis_url) as arena:
        remote = Remote(arena, name)
        try:
            yield arena, remote
        finally:
            remote.stop()


def _wait_for(condition: Callable[[], bool], timeout_s: float = 20.0) -> bool:
    """GameOver reaches the bot just after the referee stores the game: wait for the last."""
    end = time.monotonic() + timeout_s
    while not condition() and time.monotonic() < end:
        time.sleep(0.05)
    return condition()


def test_v11_a_swiss_of_team_games_with_one_remote_bot_holding_both_seats_of_its_team(
    redis_client: redis.Redis, redis_server_url: str, start_worker: StartWorker
) -> None:
    start_worker("sdk-team-a"), start_worker("sdk-team-b")
    with remote_bot(redis_server_url, "sdk-team") as (_, remote):
        field = [remote.name, "random", "greedy", "search#4"]
        create_and_start(redis_client, "sdk-teams", "swiss", field, rounds=2, players=4)
        assert wait_until_over(redis_client, "sdk-teams", timeout_s=240) is Status.FINISHED
        results = TournamentStore(redis_client).results("sdk-teams")
        mine = [m for m in results.values() if remote.name in (m.result.seat0, m.result.seat1)]
        game_ids = [game_id for match in mine for game_id in match.game_ids]
        seen = remote.bot.seen
        assert _wait_for(lambda: len(seen.ends) == 2 * len(game_ids))
    assert len(results) == 4 and len(game_ids) == 4, "two rounds, a duplicate pair each"
    owner = instances_by_seat(seen)  # each instance was given exactly one (game, seat)
    for game_id in game_ids:
        record = stored_record(redis_client, game_id)
        _, result = replay(record)  # raises unless the actions give the stored result
        assert result is not None and record.termination == "normal"
        team = tuple(seat for seat, who in enumerate(record.players) if who == remote.name)
        assert team in ((0, 2), (1, 3)), record.players  # both seats of one team (V11)
        played = {seat for (game, seat) in owner if game == game_id}
        assert played == set(team), "one instance per seat of its team"
        assert len({owner[(game_id, seat)] for seat in team}) == 2
        ends = {end.seat: end for end in seen.ends if end.game_id == game_id}
        for seat in team:  # the Lookout wins when its team does (V10)
            assert ends[seat].won == (seat in winning_seats(result))
            assert ends[seat].result.scores == result.scores
        starts = {s.seat: s for s in seen.starts if s.game_id == game_id}
        assert [starts[seat].role for seat in team] == ["mastermind", "lookout"]
        assert starts[team[0]].team == starts[team[1]].team != ""
    covered = check_views(redis_client, remote.client.player, remote.name)
    assert set(covered) == {(4, 0), (4, 1), (4, 2), (4, 3)}  # both colours: every seat


@pytest.mark.parametrize(
    ("players", "lineup", "games"),
    [
        (3, ("BOT", "greedy", "random"), 3),  # V12: the bot in every seat of the same deal
        (4, ("BOT", "greedy"), 2),  # the bot as Cream's team, then as Mint's
        (3, ("BOT", "BOT", "BOT"), 1),  # one program in every seat of a table
        (4, ("BOT", "BOT"), 1),  # and in every seat of a team game
    ],
    ids=["snitch-table", "teams", "whole-table", "both-teams"],
)
def test_v4_v9_a_remote_bot_gets_only_its_own_seats_view_in_every_seat(
    redis_client: redis.Redis,
    redis_server_url: str,
    players: int,
    lineup: tuple[str, ...],
    games: int,
) -> None:
    with remote_bot(redis_server_url, f"sdk-views-{players}") as (arena, remote):
        entrants = [remote.name if who == "BOT" else who for who in lineup]
        config: dict[str, str | int] = {"city": "rome", "players": players}
        outcomes = play_match(
            arena.client, CAPER, config, entrants, games, 21, TEST_POLICY, f"views{players}"
        )
        seats_held = sum(o.record.players.count(remote.name) for o in outcomes)
        assert _wait_for(lambda: len(remote.bot.seen.ends) == seats_held)
    assert all(o.termination is Termination.NORMAL for o in outcomes), [o.reason for o in outcomes]
    covered = check_views(redis_client, remote.client.player, remote.name)
    assert set(covered) == {(players, seat) for seat in range(players)}, covered
    owner = instances_by_seat(remote.bot.seen)
    assert len(owner) == seats_held  # an instance per (game, seat), none shared
    assert len(remote.client.player.of_kind("game_started")) == seats_held
