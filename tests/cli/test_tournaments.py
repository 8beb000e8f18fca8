"""`arena tournament ...` against a real Redis: a whole small tournament, and every bad input
answered with one line and no traceback."""

from __future__ import annotations

import json

import pytest
import redis
from click.testing import CliRunner, Result

from arena.cli import main
from arena.store.tournaments import TournamentStore
from arena.tournament import Tiebreak
from tests.workers.tournaments import work_in_process


def arena(url: str, *args: str) -> Result:
    return CliRunner().invoke(main, [*args], catch_exceptions=False, env={"REDIS_URL": url})


def test_create_start_play_and_read_a_round_robin(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    made = arena(
        redis_server_url, "tournament", "create", "cup", "--format", "round-robin",
        "--entrants", "random,greedy,search#4", "--games-per-match", "2",
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    assert "3 entrants, 3 rounds, 2 games a match" in made.output
    assert arena(redis_server_url, "tournament", "start", "cup").exit_code == 0
    work_in_process(redis_client)
    status = arena(redis_server_url, "tournament", "status", "cup")
    assert "finished; 3 of 3 scheduled matches played" in status.output, status.output
    standings = arena(redis_server_url, "tournament", "standings", "cup").output
    assert all(name in standings for name in ("random", "greedy", "search#4"))
    assert "Sonneborn-Berger" in standings
    crosstable = arena(redis_server_url, "tournament", "crosstable", "cup").output
    assert "crosstable" in crosstable
    exported = json.loads(arena(redis_server_url, "tournament", "export", "cup").output)
    assert len(exported["matches"]) == 3 and exported["definition"]["name"] == "cup"
    assert len(exported["rounds"]) == 3 and exported["standings"][0]["rank"] == 1
    csv = arena(redis_server_url, "tournament", "export", "cup", "--format", "csv").output
    assert csv.splitlines()[0].startswith("rank,entrant,points") and len(csv.splitlines()) == 4
    trf = arena(redis_server_url, "tournament", "export", "cup", "--format", "trf").output
    assert "012 cup" in trf and trf.count("\n001 ") == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--entrants", "random,ghost"], "unknown entrant(s): ghost"),
        (["--entrants", "random,greedy,random"], "entrant(s) listed twice: random"),
        (["--entrants", "random"], "at least 2 entrants, got 1"),
        (["--entrants", "random,greedy,search#4,search#5", "--rounds", "4"], "1 to 3 rounds"),
        (["--entrants", "random,greedy", "--rounds", "0"], "1 to 1 rounds"),
        (["--entrants", "random,search@fast"], "bad budget"),
        (
            ["--entrants", "random,greedy", "--rounds", "1", "--games-per-match", "3"],
            "must be even",
        ),
        (
            ["--entrants", "random,greedy", "--rounds", "1", "--time-control", "fast"],
            "MOVE_MS+BANK_MS",
        ),
        (["--entrants", "random,greedy", "--rounds", "1", "--city", "atlantis"], "unknown city"),
        (["--entrants", "random,greedy", "--rounds", "1", "--game", "chess"], "unknown game"),
        (
            ["--entrants", "random,greedy", "--rounds", "1", "--tiebreaks", "luck"],
            "unknown tie-break 'luck'",
        ),
    ],
)
def test_bad_definitions_are_refused_in_one_line(
    redis_client: redis.Redis, redis_server_url: str, args: list[str], message: str
) -> None:
    out = arena(redis_server_url, "tournament", "create", "bad", *args)
    assert out.exit_code != 0 and message in out.output, out.output
    assert "Traceback" not in out.output
    assert not redis_client.exists("arena:tournament:bad"), "nothing is stored"


def test_a_bad_name_and_a_taken_name_are_refused(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    bad = arena(
        redis_server_url,
        "tournament",
        "create",
        "a.b",
        "--entrants",
        "random,greedy",
        "--rounds",
        "1",
    )
    assert bad.exit_code == 1 and "bad tournament name 'a.b'" in bad.output
    ok = arena(
        redis_server_url,
        "tournament",
        "create",
        "ab",
        "--entrants",
        "random,greedy",
        "--rounds",
        "1",
        "--tiebreaks",
        "wins,buchholz",
    )
    assert ok.exit_code == 0
    assert TournamentStore(redis_client).get("ab").tiebreaks == (Tiebreak.WINS, Tiebreak.BUCHHOLZ)
    again = arena(
        redis_server_url,
        "tournament",
        "create",
        "ab",
        "--entrants",
        "random,greedy",
        "--rounds",
        "1",
    )
    assert again.exit_code == 1 and "already exists" in again.output


@pytest.mark.parametrize("command", ["start", "status", "standings", "crosstable", "export"])
def test_an_unknown_tournament_is_named(
    redis_client: redis.Redis, redis_server_url: str, command: str
) -> None:
    out = arena(redis_server_url, "tournament", command, "nowhere")
    assert out.exit_code == 1 and "no tournament named 'nowhere'" in out.output, out.output
    assert "Traceback" not in out.output


def test_events_get_a_fresh_seed_unless_one_is_given(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    """Two events with the default seed would deal the same games, and the first one's replays,
    published when it ends, would show the second one's deals to anyone."""
    seeds = []
    for name in ("first", "second"):
        made = arena(redis_server_url, "tournament", "create", name, "--entrants", "random,greedy")
        assert made.exit_code == 0, made.output
        seeds.append(TournamentStore(redis_client).get(name).seed)
        assert f"seed {seeds[-1]}." in made.output
    assert seeds[0] != seeds[1]
    given = arena(redis_server_url, "tournament", "create", "again", "--entrants",
                  "random,greedy", "--seed", str(seeds[0]))  # fmt: skip
    assert given.exit_code == 0 and TournamentStore(redis_client).get("again").seed == seeds[0]
    refused = arena(redis_server_url, "tournament", "create", "bad", "--entrants",
                    "random,greedy", "--seed", "-1")  # fmt: skip
    assert refused.exit_code == 2 and "Traceback" not in refused.output
    assert "seed must be between 0 and 2147483647, not -1" in refused.output
