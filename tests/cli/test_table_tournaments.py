"""`arena tournament create --players 3`: a tournament of tables of the Snitch game (V12) from the
command line, and every bad input answered with one line and no traceback."""

from __future__ import annotations

import pytest
import redis
from click.testing import CliRunner, Result

from arena.cli import main
from arena.store.encounters import table_encounters
from arena.store.tournaments import Status, TournamentStore
from tests.workers.tournaments import work_in_process

FIVE = "random,greedy,search#2,search#3,search#4"


def arena(url: str, *args: str) -> Result:
    return CliRunner().invoke(main, [*args], catch_exceptions=False, env={"REDIS_URL": url})


def test_create_start_and_read_a_swiss_of_pods_with_a_bye(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    made = arena(
        redis_server_url, "tournament", "create", "pods5", "--players", "3", "--entrants", FIVE,
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    # log base 3 of 5 entrants: 2 rounds; a duplicate table plays its deal in 3 rotations (V12)
    assert "5 entrants, 2 rounds, 3 games a table of 3" in made.output, made.output
    assert arena(redis_server_url, "tournament", "start", "pods5").exit_code == 0
    work_in_process(redis_client)
    assert TournamentStore(redis_client).status("pods5") is Status.FINISHED
    rounds = table_encounters(redis_client).rounds("pods5")
    # 5 in threes: one table, two byes a round; nobody sits out twice
    assert [(len(r.tables), len(r.byes)) for r in rounds] == [(1, 2), (1, 2)]
    assert len({e for r in rounds for e in r.byes}) == 4
    status = arena(redis_server_url, "tournament", "status", "pods5")
    assert "finished; 2 of 2 scheduled tables played" in status.output, status.output
    standings = arena(redis_server_url, "tournament", "standings", "pods5").output
    assert all(name in standings for name in FIVE.split(",")) and "byes" in standings
    late = arena(redis_server_url, "tournament", "enter", "pods5", "search#9")
    assert late.exit_code == 1 and "played at tables: it takes no late entries" in late.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--entrants", "random,greedy"], "seats 3 entrants: the field has only 2"),
        (["--entrants", FIVE, "--format", "double-round-robin"], "played at tables"),
        (["--entrants", FIVE, "--games-per-match", "2"], "multiple of 3"),
        (["--entrants", FIVE, "--rounds", "3"], "1 to 2 rounds"),
        (["--entrants", FIVE, "--format", "round-robin", "--rounds", "2"], "leave --rounds out"),
        (["--entrants", FIVE, "--format", "knockout"], "'knockout' is not one of"),
        (["--entrants", "random,greedy,ghost"], "unknown entrant(s): ghost"),
    ],
)
def test_bad_table_tournaments_are_refused_in_one_line(
    redis_client: redis.Redis, redis_server_url: str, args: list[str], message: str
) -> None:
    out = arena(redis_server_url, "tournament", "create", "badt", "--players", "3", *args)
    assert out.exit_code != 0 and message in out.output, out.output
    assert "Traceback" not in out.output
    assert not redis_client.exists("arena:tournament:badt"), "nothing is stored"
