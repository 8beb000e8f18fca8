"""Options that do not apply to the game are refused with one line, in every command taking game
options; `arena play --help` says how many bots each game takes."""

from __future__ import annotations

import pytest
import redis
from click.testing import CliRunner

from arena.cli import main

AOT_WITH_A_CITY = ("--game", "age-of-thieves", "--city", "rome")
COMMANDS = [
    ("play", "greedy", "random", "-n", "1"),
    ("match", "greedy", "random"),
    ("tournament", "create", "cup", "--entrants", "greedy,random"),
    ("ladder", "create", "main"),
    ("sprt", "start", "ab", "--test", "greedy", "--base", "random"),
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: " ".join(command[:2]))
def test_a_city_for_a_game_played_on_one_board_is_refused(
    redis_client: redis.Redis, redis_server_url: str, command: tuple[str, ...]
) -> None:
    argv = [*command, *AOT_WITH_A_CITY, "--redis-url", redis_server_url]
    if command[0] == "play":
        argv = argv[:-2]  # played locally, without Redis
    got = CliRunner().invoke(main, argv)
    assert got.exit_code == 1, got.output
    assert got.output.strip() == "Error: Age of Thieves has no cities: --city 'rome' does not apply"
    assert redis_client.dbsize() == 0  # nothing was created


def test_play_help_says_how_many_bots_each_game_takes() -> None:
    shown = " ".join(CliRunner().invoke(main, ["play", "--help"]).output.split())
    assert "or three with --players 3" not in shown
    for text in (
        "one bot a side, so two",
        "three at --players 3",
        "age-of-thieves one a thief, 2 to 4",
    ):
        assert text in shown, shown
