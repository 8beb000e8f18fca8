"""An event's games download: every record the replay pages show in full, one JSON line each,
gzipped, in order of round, board and game; pairs and tables alike."""

from __future__ import annotations

import gzip

import pytest
import redis

from arena.games.record import GameRecord, replay
from arena.services import event_runs
from arena.services.event_games import export_games
from arena.store import keys
from arena.store.encounters import table_encounters
from arena.store.tournaments import Status, TournamentStore, TournamentStoreError
from arena.store.values import as_text
from tests.workers.tournaments import create_and_start, work_in_process

pytestmark = pytest.mark.timeout(240)

FIELD = ["random", "greedy", "search#4", "search#8"]  # round robin: 3 rounds of 2 boards


def _lines(client: redis.Redis, name: str) -> list[bytes]:
    return gzip.decompress(b"".join(export_games(client, name))).splitlines()


def _stored(client: redis.Redis, game_ids: list[str]) -> list[bytes]:
    found = client.mget([keys.game_record(g) for g in game_ids])
    assert None not in found, "every game of a recorded match is stored"
    return [GameRecord.loads(as_text(text)).dumps().encode() for text in found if text is not None]


def _check_replays(lines: list[bytes]) -> None:
    for line in lines:
        record = GameRecord.loads(line.decode())
        _, result = replay(record)
        assert result is not None and record.result is not None
        assert list(result.scores) == list(record.result["scores"])


def test_a_played_round_robin_exports_every_game_by_round_board_and_game(
    redis_client: redis.Redis,
) -> None:
    create_and_start(redis_client, "rr", "round-robin", FIELD, games_per_match=2)
    work_in_process(redis_client)
    assert TournamentStore(redis_client).status("rr") is Status.FINISHED
    ordered = [f"rr.r{r}.b{b}.g{g}" for r in (1, 2, 3) for b in (0, 1) for g in (0, 1)]
    lines = _lines(redis_client, "rr")
    assert lines == _stored(redis_client, ordered)  # 12 games, in that order
    _check_replays(lines)
    assert b"".join(export_games(redis_client, "rr")) == b"".join(export_games(redis_client, "rr"))


def test_an_event_of_tables_exports_its_tables_games(redis_client: redis.Redis) -> None:
    six = ["random", "greedy", "search#4", "search#8", "search#12", "search#16"]
    create_and_start(redis_client, "pods", "swiss", six, rounds=1, games_per_match=3, players=3)
    work_in_process(redis_client)
    (only_round,) = table_encounters(redis_client).rounds("pods")
    assert len(only_round.tables) == 2
    ordered = [f"pods.r1.b{b}.g{g}" for b in (0, 1) for g in (0, 1, 2)]
    lines = _lines(redis_client, "pods")
    assert lines == _stored(redis_client, ordered)
    _check_replays(lines)


def test_a_round_in_play_is_left_out_as_its_replay_pages_hide_it(
    redis_client: redis.Redis,
) -> None:
    """Board 0 of round 1 is played, board 1 is not: board 0's deals are board 1's too."""
    create_and_start(redis_client, "live", "round-robin", FIELD, games_per_match=2)
    event_runs.play(redis_client, "live", 1, 0)
    assert TournamentStore(redis_client).recorded("live") == {"live.r1.b0"}
    assert redis_client.exists(keys.game_record("live.r1.b0.g0"))
    assert _lines(redis_client, "live") == []
    work_in_process(redis_client)
    assert len(_lines(redis_client, "live")) == 12


def test_every_game_waits_while_another_event_deals_the_same_cards(
    redis_client: redis.Redis,
) -> None:
    create_and_start(redis_client, "week1", "round-robin", FIELD, seed=11)
    work_in_process(redis_client)
    create_and_start(redis_client, "week2", "round-robin", FIELD[::-1], seed=11)
    assert _lines(redis_client, "week1") == []
    work_in_process(redis_client)
    assert len(_lines(redis_client, "week1")) == 12


def test_an_unreadable_record_is_left_out_and_an_unknown_event_refused_at_once(
    redis_client: redis.Redis,
) -> None:
    create_and_start(redis_client, "rr", "round-robin", FIELD, games_per_match=2)
    work_in_process(redis_client)
    redis_client.set(keys.game_record("rr.r1.b0.g1"), "{not json")
    readable = [f"rr.r{r}.b{b}.g{g}" for r in (1, 2, 3) for b in (0, 1) for g in (0, 1)]
    readable.remove("rr.r1.b0.g1")
    assert _lines(redis_client, "rr") == _stored(redis_client, readable)
    with pytest.raises(TournamentStoreError, match="nope"):
        export_games(redis_client, "nope")
