"""Whole tournaments played by real worker processes on a real Redis server."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
import redis

from arena.cli import tournaments
from arena.games.record import GameRecord, replay
from arena.services import events
from arena.store import keys
from arena.store.tournaments import Status, TournamentStore
from arena.store.values import as_text
from tests.workers.conftest import StartWorker
from tests.workers.tournaments import (
    by_place,
    create_and_start,
    outcome,
    wait_until_over,
    work_in_process,
)

pytestmark = pytest.mark.timeout(240)

ROUND_ROBIN_FIELD = ["random", "greedy", "search#4", "search#8", "search#12"]
SWISS_FIELD = [*ROUND_ROBIN_FIELD, "search#16", "search#20", "search#24"]


def test_a_round_robin_with_an_odd_field_is_played_to_the_end(
    redis_client: redis.Redis, start_worker: StartWorker
) -> None:
    start_worker("rr-a"), start_worker("rr-b")
    create_and_start(redis_client, "rr", "round-robin", ROUND_ROBIN_FIELD)
    assert wait_until_over(redis_client, "rr") is Status.FINISHED
    store = TournamentStore(redis_client)
    rounds, results = store.rounds("rr"), store.results("rr")
    assert len(rounds) == 5 and len(results) == 10
    met = Counter(frozenset((m.result.seat0, m.result.seat1)) for m in results.values())
    assert set(met) == {frozenset(p) for p in itertools.combinations(ROUND_ROBIN_FIELD, 2)}
    assert set(met.values()) == {1}
    assert sorted(b.entrant for r in rounds for b in r.byes) == sorted(ROUND_ROBIN_FIELD)
    for match in results.values():  # one duplicate pair: one point, shared or not
        assert match.result.game_points0 + match.result.game_points1 == 1
        assert match.terminations == ("normal", "normal")
        for game_id in match.game_ids:
            _assert_record_replays(redis_client, game_id)


def _assert_record_replays(client: redis.Redis, game_id: str) -> GameRecord:
    stored = client.get(keys.game_record(game_id))
    assert stored is not None, f"no record of game {game_id}"
    record = GameRecord.loads(as_text(stored))
    _, result = replay(record)  # raises if the stored result is not what the actions give
    assert result is not None and record.termination == "normal"
    return record


def test_a_swiss_is_paired_round_by_round_and_matches_an_in_process_run(
    redis_client: redis.Redis, start_worker: StartWorker
) -> None:
    pool = [start_worker("swiss-a"), start_worker("swiss-b")]
    create_and_start(redis_client, "swiss", "swiss", SWISS_FIELD, rounds=3)
    assert wait_until_over(redis_client, "swiss") is Status.FINISHED
    store = TournamentStore(redis_client)
    rounds = store.rounds("swiss")
    assert [r.number for r in rounds] == [1, 2, 3]
    for round_ in rounds:
        assert sorted(e for p in round_.pairings for e in p.entrants) == sorted(SWISS_FIELD)
    pairs = [frozenset(p.entrants) for r in rounds for p in r.pairings]
    assert len(pairs) == len(set(pairs)) == 12, "no rematches"
    # The same definition played by this process alone gives the same pairings and results.
    for worker in pool:
        worker.stop()
    create_and_start(redis_client, "swiss-here", "swiss", SWISS_FIELD, rounds=3)
    work_in_process(redis_client)
    assert store.status("swiss-here") is Status.FINISHED
    here, there = by_place(redis_client, "swiss-here"), by_place(redis_client, "swiss")
    assert here.keys() == there.keys()
    assert {k: outcome(m) for k, m in here.items()} == {k: outcome(m) for k, m in there.items()}


def test_a_caper_europe_round_robin_is_keyed_by_its_game(redis_client: redis.Redis) -> None:
    field = ["random", "greedy", "search#4"]
    create_and_start(redis_client, "euro", "round-robin", field, game="caper-europe", city="rome")
    work_in_process(redis_client)
    store = TournamentStore(redis_client)
    assert store.status("euro") is Status.FINISHED and len(store.results("euro")) == 3
    for match in store.results("euro").values():
        for game_id in match.game_ids:
            record = _assert_record_replays(redis_client, game_id)
            assert record.game == "caper-europe" and record.config["city"] == "rome"


def test_a_late_entrant_and_a_withdrawal_change_the_next_rounds(redis_client: redis.Redis) -> None:
    field = ["random", "greedy", "search#4", "search#6"]
    definition = create_and_start(redis_client, "open", "swiss", field, rounds=3)
    store = TournamentStore(redis_client)
    # Round 1 is paired; before anything is played, one entrant leaves and one arrives.
    events.withdraw(redis_client, "open", "search#6")
    events.enter_late(redis_client, "open", "search#8")
    work_in_process(redis_client)
    assert store.status("open") is Status.FINISHED
    rounds = store.rounds("open")
    assert "search#8" not in {e for p in rounds[0].pairings for e in p.entrants}
    for round_ in rounds[1:]:
        paired = {e for p in round_.pairings for e in p.entrants}
        assert "search#6" not in paired
        assert paired | {b.entrant for b in round_.byes} == {
            "random",
            "greedy",
            "search#4",
            "search#8",
        }
    missed = [b for b in store.history("open").byes if b.entrant == "search#8"]
    assert [(b.round, b.kind.value) for b in missed] == [(1, "absent")]
    assert store.entrants("open") == (*definition.entrants, "search#8")
    standings = tournaments.standings_table(redis_client, "open")
    assert standings.row_count == 5


def test_late_entries_and_withdrawals_are_refused_where_they_make_no_sense(
    redis_client: redis.Redis,
) -> None:
    create_and_start(redis_client, "fixed", "round-robin", ["random", "greedy"])
    with pytest.raises(ValueError, match="only a Swiss takes late entries"):
        events.enter_late(redis_client, "fixed", "search#4")
    with pytest.raises(ValueError, match="withdrawals are only taken in a Swiss"):
        events.withdraw(redis_client, "fixed", "random")
    create_and_start(redis_client, "open", "swiss", ["random", "greedy", "search#4"], rounds=2)
    with pytest.raises(ValueError, match="'greedy' is already an entrant"):
        events.enter_late(redis_client, "open", "greedy")
    with pytest.raises(ValueError, match="unknown entrant"):
        events.enter_late(redis_client, "open", "ghost")
    with pytest.raises(ValueError, match="'ghost' is not an entrant"):
        events.withdraw(redis_client, "open", "ghost")
    events.withdraw(redis_client, "open", "random")
    with pytest.raises(ValueError, match="already withdrawn"):
        events.withdraw(redis_client, "open", "random")
