"""An SPRT whose test bot is a registered remote bot: the Python SDK's example bot, connected
through a real gateway on loopback, played by real workers against a built-in base."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
import redis
from click.testing import CliRunner

from arena.cli import main
from arena.games.record import GameRecord
from arena.gateway.testing import running_arena
from arena.services.sprt_runs import start
from arena.store import keys
from arena.store.sprt import SprtDefinition, SprtStatus, SprtStore, State
from arena.store.values import as_text
from bots_sdk import Backoff
from bots_sdk.client import Client
from bots_sdk.examples.random_bot import RandomBot
from tests.workers.conftest import StartWorker, start_worker  # noqa: F401  (the fixture)

pytestmark = pytest.mark.timeout(300)

BOT = "sdk-sprt"


@pytest.fixture
def sdk_client(redis_server_url: str) -> Iterator[Client]:
    """A registered SDK bot (random moves, cards first), connected until the test ends or
    stops it."""
    with running_arena(redis_server_url) as arena:
        client = Client(RandomBot(seed=5), arena.target, arena.register_bot(BOT),
                        backoff=Backoff(initial_s=0.1, maximum_s=1.0))  # fmt: skip
        thread = threading.Thread(target=client.run, daemon=True)
        thread.start()
        assert client.connected.wait(20), "the SDK bot did not connect"
        yield client
        client.stop()
        thread.join(20)


@pytest.fixture
def remote_bot(sdk_client: Client) -> str:
    return BOT


def _wait_until_over(
    client: redis.Redis, name: str, timeout_s: float, pairs: int | None = None
) -> SprtStatus:
    """The test's status once it is over (or has counted `pairs`), or at the deadline."""
    deadline = time.monotonic() + timeout_s
    status = SprtStore(client).status(name)
    while status.state is State.RUNNING and time.monotonic() < deadline:
        if pairs is not None and status.pairs >= pairs:
            break
        time.sleep(0.2)
        status = SprtStore(client).status(name)
    return status


def _pair_halves(client: redis.Redis, pair: str, player: str, remote: str) -> int:
    """`player`'s half points over the pair's two stored games (a win 2, a draw 1), each
    played by the remote bot and `player` (one seat each)."""
    halves = 0
    for game in (0, 1):
        stored = client.get(keys.game_record(f"{pair}.g{game}"))
        assert stored is not None, f"{pair}.g{game} was counted but not stored"
        record = GameRecord.loads(as_text(stored))
        assert record.termination == "normal", (pair, record.termination)
        assert record.result is not None and {player, remote} <= set(record.players)
        winner = record.result.get("winner")
        halves += 1 if winner is None else 2 * (record.players[int(str(winner))] == player)
    return halves


@pytest.mark.parametrize(
    ("remote_as", "decision"), [("test", State.ACCEPTED_H0), ("base", State.ACCEPTED_H1)]
)
def test_an_sprt_of_a_remote_sdk_bot_and_greedy_is_decided(
    redis_client: redis.Redis,
    redis_server_url: str,
    remote_bot: str,
    start_worker: StartWorker,  # noqa: F811
    remote_as: str,
    decision: State,
) -> None:
    """Random moves against the greedy bot: far below elo0, so with the remote bot as the test
    the SPRT accepts H0, and as the base it accepts H1 (greedy is the stronger), having counted
    every pair once: the counts are the stored games' results, pair by pair."""
    start_worker("sprt-a"), start_worker("sprt-b")
    test, base = (remote_bot, "greedy") if remote_as == "test" else ("greedy", remote_bot)
    args = ["--test", test, "--base", base, "--elo0", "0", "--elo1", "40", "--seed", "7"]
    args += ["--batch-pairs", "2", "--parallel", "3", "--max-pairs", "200"]
    env = {"REDIS_URL": redis_server_url}
    started = CliRunner().invoke(main, ["sprt", "start", "remote", *args], env=env)
    assert started.exit_code == 0, started.output
    status = _wait_until_over(redis_client, "remote", timeout_s=240)
    assert status.state is decision, (status.state, status.reason, status.counts)
    lower, upper = status.definition.bounds
    assert status.llr <= lower if decision is State.ACCEPTED_H0 else status.llr >= upper
    assert status.pairs < 200, "decided at a bound"
    _counted_pairs_match_their_games(redis_client, status)
    shown = CliRunner().invoke(main, ["sprt", "status", "remote"], env=env)
    assert f"remote: {decision.value}" in shown.output, shown.output
    assert f"{test} (test) vs {base} (base)" in shown.output


def _counted_pairs_match_their_games(client: redis.Redis, status: SprtStatus) -> None:
    """Every pair is counted once, as its two stored games (both played out) scored it."""
    name, (test, base) = status.definition.name, (status.definition.test, status.definition.base)
    applied = {as_text(k): int(v) for k, v in client.hgetall(keys.sprt_applied(name)).items()}
    assert len(applied) == status.pairs
    counts = [0] * 5
    for pair, halves in applied.items():
        assert _pair_halves(client, pair, test, base if test == BOT else BOT) == halves, pair
        counts[halves] += 1
    assert tuple(counts) == status.counts


def test_a_remote_bot_that_goes_away_stops_the_test_and_its_forfeits_are_not_counted(
    redis_client: redis.Redis,
    sdk_client: Client,
    start_worker: StartWorker,  # noqa: F811
) -> None:
    """A game lost because the bot was away longer than the grace period says nothing of its
    strength: its pair is not counted (its batch is retried, then the test stops, saying why),
    where counting it would let a bot's absence accept H0."""
    start_worker("sprt-c")
    definition = SprtDefinition(
        "away", BOT, "random", elo0=-10, elo1=10, max_pairs=400, batch_pairs=2, parallel=2,
        seed=9, grace_ms=1000,  # a short grace: each away game ends after a second
    )  # fmt: skip
    start(redis_client, definition)
    assert _wait_until_over(redis_client, "away", timeout_s=120, pairs=1).pairs >= 1
    sdk_client.stop()
    status = _wait_until_over(redis_client, "away", timeout_s=120)
    assert status.state is State.STOPPED, (status.state, status.counts)
    assert f"{BOT} was away longer than the grace period" in status.reason, status.reason
    _counted_pairs_match_their_games(redis_client, status)  # every counted game: normal
