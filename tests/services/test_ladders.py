"""The ladders service: a ladder is created with its constants, found by name, and its state
refuses what does not fit it (a stopped ladder's matchmaker is turned away until it resumes)."""

from __future__ import annotations

import pytest
import redis

from arena.services import ladders
from arena.store.ladders import LadderStore
from arena.tournament.definition import TimeControl
from arena.tournament.lifecycle import LifecycleError, State


def test_a_ladder_is_created_found_stopped_and_resumed(redis_client: redis.Redis) -> None:
    made = ladders.create(
        redis_client, "club", "caper", ladders.params(24.0, 0.6, 110.0),
        ladders.bot_list("random, greedy,random"), False, "paris", 2, None,
        TimeControl(move_ms=500, bank_ms=0), 7,
    )  # fmt: skip
    found = ladders.find(redis_client, "club")
    assert found == made and found.bots == ("random", "greedy") and found.params.k == 24.0
    assert "Elo K=24, Glicko-2 tau=0.6" in ladders.rates(found)
    ladders.begin_run(redis_client, found.ref)
    ladders.stop(redis_client, found.ref)
    with pytest.raises(LifecycleError, match="stopped"):
        ladders.begin_run(redis_client, found.ref)
    ladders.resume(redis_client, found.ref)
    assert LadderStore(redis_client).state(found.ref) is State.RUNNING
