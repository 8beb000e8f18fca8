"""Age of Thieves at tables of 3 (V12), one board so no city in its configuration:
`arena tournament create --game age-of-thieves --players 3` played to the end by real workers
with the standings read back, and a ladder of its tables played and rated by Weng-Lin."""

from __future__ import annotations

import redis
from click.testing import CliRunner, Result

from arena.cli import main
from arena.store.encounters import table_encounters
from arena.store.tournaments import Status, TournamentStore
from tests.workers.tournaments import work_in_process

THREE = "random,greedy,search#2"


def arena(url: str, *args: str) -> Result:
    return CliRunner().invoke(main, [*args], catch_exceptions=False, env={"REDIS_URL": url})


def test_a_round_robin_of_age_of_thieves_tables_is_played_to_the_end(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    made = arena(
        redis_server_url, "tournament", "create", "aot3", "--game", "age-of-thieves",
        "--players", "3", "--format", "round-robin", "--entrants", THREE,
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    assert "3 games a table of 3" in made.output, made.output
    definition = TournamentStore(redis_client).get("aot3")
    assert definition.game == "age-of-thieves" and definition.config == {"players": 3}
    assert arena(redis_server_url, "tournament", "start", "aot3").exit_code == 0
    work_in_process(redis_client)
    assert TournamentStore(redis_client).status("aot3") is Status.FINISHED
    rounds = table_encounters(redis_client).rounds("aot3")
    assert [len(r.tables) for r in rounds] == [1]
    standings = arena(redis_server_url, "tournament", "standings", "aot3").output
    assert all(name in standings for name in THREE.split(",")), standings


def test_a_ladder_of_age_of_thieves_tables_plays_and_rates_with_weng_lin(
    redis_server_url: str,
) -> None:
    url = redis_server_url
    created = arena(url, "ladder", "create", "thieves", "--game", "age-of-thieves",
                    "--players", "3", "--bots", THREE)  # fmt: skip
    assert created.exit_code == 0, created.output
    assert "tables of 3" in created.output and "Weng-Lin" in created.output
    ran = arena(url, "ladder", "run", "thieves", "--game", "age-of-thieves", "--max-matches", "1",
                "--inline", "--seed", "2")  # fmt: skip
    assert ran.exit_code == 0, ran.output
    assert "1 matches: 1 played, 0 failed" in ran.output, ran.output
    shown = arena(url, "ladder", "show", "thieves", "--game", "age-of-thieves")
    assert shown.exit_code == 0, shown.output
    assert all(name in shown.output for name in THREE.split(",")), shown.output
