"""A tournament's state against a real Redis: every command that does not fit it is refused in
one line naming the state, and queues nothing; `stop` stops, `resume` goes on; two starts at
once start it once; a stopped tournament's queued jobs play nothing."""

from __future__ import annotations

import threading

import pytest
import redis

from arena.services import event_runs
from arena.store import keys
from arena.store.encounters import table_encounters
from arena.store.job_queue import arena_queue
from arena.store.tournaments import Status, TournamentStore
from arena.tournament.lifecycle import Command, LifecycleError
from tests.cli.refusals import arena, refused
from tests.workers.tournaments import create_and_start, work_in_process

FOUR = ["random", "greedy", "search#2", "search#3"]


@pytest.mark.parametrize(
    ("name", "format", "players", "entrants", "rounds"),
    [
        ("cup", "swiss", 2, FOUR, 2),  # said: history has records for round 2, before round 1
        ("pods", "swiss", 3, FOUR[:3], 1),  # said: round 1 is already on record (up to 1)
        ("euro", "round-robin", 2, FOUR[:3], None),  # said "Started" and queued nothing
        ("aot", "round-robin", 3, ["random", "greedy", "search#2"], None),  # Age of Thieves
    ],
)
def test_starting_a_finished_tournament_is_refused_and_queues_nothing(
    redis_client: redis.Redis,
    redis_server_url: str,
    name: str,
    format: str,
    players: int,
    entrants: list[str],
    rounds: int | None,
) -> None:
    game, city = ("age-of-thieves", None) if name == "aot" else ("caper", "paris")
    definition = create_and_start(
        redis_client, name, format, entrants, rounds, players=players, game=game, city=city,
        games_per_match=3 if players == 3 else 2,
    )  # fmt: skip
    work_in_process(redis_client)
    assert TournamentStore(redis_client).status(name) is Status.FINISHED
    planned = definition.planned_rounds
    refused(
        redis_server_url,
        f"{name} is finished ({planned} of {planned} rounds); nothing to start",
        "tournament", "start", name,
    )  # fmt: skip
    assert arena_queue(redis_client).count == 0


def test_a_second_start_is_refused_and_queues_nothing_more(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    assert arena(redis_server_url, "tournament", "create", "cup", "--entrants", ",".join(FOUR),
                 "--rounds", "2", "--games-per-match", "2").exit_code == 0  # fmt: skip
    assert "Started cup" in arena(redis_server_url, "tournament", "start", "cup").output
    queued = arena_queue(redis_client).job_ids
    refused(redis_server_url, "cup is running (1 of 2 rounds); it has started already",
            "tournament", "start", "cup")  # fmt: skip
    assert arena_queue(redis_client).job_ids == queued


def test_entering_or_withdrawing_from_a_finished_swiss_is_refused(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    create_and_start(redis_client, "cup", "swiss", FOUR, rounds=2)
    work_in_process(redis_client)
    refused(redis_server_url, "cup is finished (2 of 2 rounds); too late to withdraw",
            "tournament", "withdraw", "cup", "random")  # fmt: skip
    refused(redis_server_url, "cup is finished (2 of 2 rounds); too late to enter",
            "tournament", "enter", "cup", "search#4")  # fmt: skip
    refused(redis_server_url, "cup is finished (2 of 2 rounds); nothing to stop",
            "tournament", "stop", "cup")  # fmt: skip
    store = TournamentStore(redis_client)
    assert store.withdrawn("cup") == frozenset() and store.late_entrants("cup") == []


def test_stop_takes_the_queue_off_keeps_the_results_and_resume_goes_on(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    refused(redis_server_url, "no tournament named 'cup'", "tournament", "stop", "cup")
    assert arena(redis_server_url, "tournament", "create", "cup", "--entrants", ",".join(FOUR),
                 "--rounds", "2", "--games-per-match", "2").exit_code == 0  # fmt: skip
    refused(redis_server_url, "cup is created (0 of 2 rounds); it has not started; nothing to "
            "stop", "tournament", "stop", "cup")  # fmt: skip
    arena(redis_server_url, "tournament", "start", "cup")
    out = arena(redis_server_url, "tournament", "stop", "cup")
    assert "cup stopped; 2 queued jobs taken off the queue" in out.output, out.output
    assert arena_queue(redis_client).count == 0
    for args, why in [
        (("stop", "cup"), "it is stopped already"),
        (("start", "cup"), "resume it to go on"),
        (("enter", "cup", "search#4"), "no entries while it is stopped"),
        (("withdraw", "cup", "random"), "no withdrawals while it is stopped"),
    ]:
        refused(redis_server_url, f"cup is stopped (1 of 2 rounds; the organiser stopped it); "
                f"{why}", "tournament", *args)  # fmt: skip
    status = arena(redis_server_url, "tournament", "status", "cup").output.replace("\n", " ")
    assert "cup: stopped; 0 of 2" in status and "because the organiser stopped it" in status
    listed = arena(redis_server_url, "tournament", "list").output
    assert "stopped" in listed and "1 of 2" in listed, listed
    assert (
        "cup resumed: 2 unplayed" in arena(redis_server_url, "tournament", "resume", "cup").output
    )
    work_in_process(redis_client)
    store = TournamentStore(redis_client)
    assert store.status("cup") is Status.FINISHED and store.recorded_count("cup") == 4


@pytest.mark.parametrize("players", [2, 3])
def test_a_stopped_tournaments_queued_jobs_play_nothing_and_do_not_fail(
    redis_client: redis.Redis, players: int
) -> None:
    create_and_start(redis_client, "halt", "round-robin", FOUR[:3], players=players,
                     games_per_match=3 if players == 3 else 2)  # fmt: skip
    store = TournamentStore(redis_client)
    store.transition("halt", Command.STOP, "the organiser stopped it")  # jobs left queued
    queue = arena_queue(redis_client)
    assert queue.count > 0
    work_in_process(redis_client)
    assert (
        store.recorded_count("halt") == 0
        and table_encounters(redis_client).recorded("halt") == set()
    )
    assert queue.failed_job_registry.count == 0 and queue.finished_job_registry.count > 0
    assert store.status("halt") is Status.STOPPED


def test_of_two_starts_at_once_one_starts_and_the_other_is_refused(
    redis_client: redis.Redis,
) -> None:
    create_and_start(redis_client, "warmup", "round-robin", FOUR[:2])  # imports, caches
    from arena.services import events
    from tests.workers.tournaments import FAST

    events.create(redis_client, "race", "round-robin", FOUR, None, "caper", "paris", 2,
                       True, FAST, 1)  # fmt: skip
    jobs_before = arena_queue(redis_client).count
    barrier, outcomes = threading.Barrier(6), list[int | str]()

    def start() -> None:
        barrier.wait()
        try:
            outcomes.append(len(event_runs.start(redis_client, "race")))
        except LifecycleError as error:
            outcomes.append(str(error))

    threads = [threading.Thread(target=start) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes.count(3) == 1, outcomes
    assert all("race is running" in str(o) for o in outcomes if o != 3), outcomes
    assert arena_queue(redis_client).count - jobs_before == 3  # 3 rounds of 2 matches
    assert len(TournamentStore(redis_client).rounds("race")) == 3


def test_a_tournament_stored_without_a_state_gets_one_from_its_records(
    redis_client: redis.Redis,
) -> None:
    create_and_start(redis_client, "old", "swiss", FOUR, rounds=2)
    work_in_process(redis_client)
    create_and_start(redis_client, "half", "swiss", FOUR, rounds=2)
    from arena.services import events
    from tests.workers.tournaments import FAST

    events.create(redis_client, "new", "swiss", FOUR, 2, "caper", "paris", 2, True, FAST, 1)
    for name in ("old", "half", "new"):
        redis_client.hdel(keys.tournament(name), "status")
    store = TournamentStore(redis_client)
    assert [store.status(n) for n in ("old", "half", "new")] == [
        Status.FINISHED, Status.RUNNING, Status.CREATED,
    ]  # fmt: skip
    assert redis_client.hget(keys.tournament("old"), "status") == b"finished", "stored now"
    with pytest.raises(LifecycleError, match="old is finished"):
        event_runs.start(redis_client, "old")
