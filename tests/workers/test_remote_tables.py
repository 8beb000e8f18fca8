"""A pod Swiss of the Snitch game (V12) with one remote bot: the Python SDK's example bot,
registered and connected through a real gateway on loopback, seated at tables by real workers."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
import redis

from arena.gateway.testing import running_arena
from arena.store.encounters import table_encounters
from arena.store.tournaments import Status, TournamentStore
from bots_sdk import Backoff
from bots_sdk.client import Client
from bots_sdk.examples.random_bot import RandomBot
from tests.workers.conftest import StartWorker
from tests.workers.tables import assert_standings_are_the_records
from tests.workers.tournaments import create_and_start, wait_until_over

pytestmark = pytest.mark.timeout(300)

BUILTIN = ["random", "greedy", *(f"search#{n}" for n in range(2, 8))]


@pytest.fixture
def remote_bot(redis_server_url: str) -> Iterator[str]:
    """The name of a registered SDK bot, connected to a running gateway until the test ends."""
    with running_arena(redis_server_url) as arena:
        client = Client(RandomBot(seed=3), arena.target, arena.register_bot("sdk-snitch"),
                        backoff=Backoff(initial_s=0.1, maximum_s=1.0))  # fmt: skip
        thread = threading.Thread(target=client.run, daemon=True)
        thread.start()
        assert client.connected.wait(20), "the SDK bot did not connect"
        yield "sdk-snitch"
        client.stop()
        thread.join(20)


def test_a_pod_swiss_of_nine_with_a_remote_sdk_bot_finishes(
    redis_client: redis.Redis, remote_bot: str, start_worker: StartWorker
) -> None:
    start_worker("remote-a"), start_worker("remote-b")
    field = [*BUILTIN[:4], remote_bot, *BUILTIN[4:]]
    create_and_start(redis_client, "remote", "swiss", field, rounds=3, games_per_match=3, players=3)
    assert wait_until_over(redis_client, "remote", timeout_s=240) is Status.FINISHED
    results = table_encounters(redis_client).results("remote")
    assert len(results) == 9
    assert set(TournamentStore(redis_client).attempts("remote").values()) == {1}
    at_its_tables = [t for t in results.values() if remote_bot in t.entrants]
    assert len(at_its_tables) == 3, "the remote bot played every round"
    for table in at_its_tables:  # every game played out: no fault, no timeout
        assert table.terminations == ("normal",) * 3, table
    assert_standings_are_the_records(redis_client, "remote")  # it sat in every seat (V12)
