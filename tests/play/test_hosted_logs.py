"""A hosted bot's program leaves the end of its stderr, and why it stopped early if it did, for
its owner after each match; nobody else reads it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from click.testing import CliRunner
from starlette.testclient import TestClient

from arena.bots import make_bot
from arena.cli import main
from arena.games import base_config, get_game
from arena.play.hosted import HostedPrograms
from arena.referee.referee import BuiltinSeat, Seat, referee_game
from arena.services import bots, hosted
from arena.store.bots import BotRegistry
from arena.web.app import create_app
from arena.web.server import serving
from arena.web.signer import WebSettings
from tests.hosted.programs import PLAIN, TEST_POLICY, submit_program, version_cache
from tests.web.signing import sign_in

TALKER = "def act(request):\n    log('thinking about', request['requestId'])\n    return reply(request)\n"
CRASH = "def act(request):\n    log('about to fail')\n    raise SystemExit(3)\n"


@pytest.fixture(autouse=True)
def cache() -> Iterator[Path]:
    with version_cache() as folder:
        yield folder


def play_one_game(client: redis.Redis, name: str) -> None:
    game, config = get_game("caper"), base_config("caper", None, 2)
    bot = BotRegistry(client).by_name(name)
    assert bot is not None
    with HostedPrograms(client) as programs:
        seats: list[Seat] = [programs.seat(bot, game), BuiltinSeat(make_bot("random"), game, 1, 1)]
        referee_game(game, config, 1, seats, TEST_POLICY, game_id="g1", timer=time.perf_counter)


def test_the_owner_reads_the_end_of_the_program_s_stderr_after_a_match(
    redis_client: redis.Redis, tmp_path: Path
) -> None:
    submit_program(redis_client, "talker", TALKER, tmp_path / "talker")
    submit_program(redis_client, "crasher", CRASH, tmp_path / "crasher")
    assert hosted.program_log(redis_client, "talker", "admin", "admin") is None
    play_one_game(redis_client, "talker")
    play_one_game(redis_client, "crasher")
    talked = hosted.program_log(redis_client, "talker", "admin", "admin")
    assert talked is not None and "thinking about g1.0." in talked.stderr and talked.why == ""
    assert talked.version == hosted.versions(redis_client, "talker")[0].version
    crashed = hosted.program_log(redis_client, "crasher", "admin", "admin")
    assert crashed is not None and "about to fail" in crashed.stderr
    assert crashed.why == "it exited with code 3"
    with pytest.raises(hosted.HostedError, match="neither"):
        hosted.program_log(redis_client, "talker", "not-its-token", "admin")


def test_a_quiet_program_leaves_an_empty_log(redis_client: redis.Redis, tmp_path: Path) -> None:
    submit_program(redis_client, "quiet", PLAIN, tmp_path / "quiet")
    play_one_game(redis_client, "quiet")
    log = hosted.program_log(redis_client, "quiet", "admin", "admin")
    assert log is not None and (log.stderr, log.why) == ("", "")


def test_the_log_on_the_owner_s_page_from_the_cli_and_through_the_api(
    redis_client: redis.Redis, tmp_path: Path
) -> None:
    submit_program(redis_client, "crasher", CRASH, tmp_path / "crasher")
    token = bots.rotate_token(redis_client, "crasher")[1]
    play_one_game(redis_client, "crasher")
    web = TestClient(create_app(redis_client, WebSettings("admin")))
    sign_in(web, token)
    page = web.get("/bots/crasher/versions").text
    assert "stopped early</strong>, it exited with code 3" in page and "about to fail" in page
    env = {"ARENA_BOT_TOKEN": token, "REDIS_URL": None}
    with serving(redis_client) as url:
        args = ["bot", "versions", "crasher", "--program-log", "--site", url]
        out = CliRunner().invoke(main, args, env=env, catch_exceptions=False)
    assert out.exit_code == 0, out.output
    assert "stopped early: it exited with code 3" in out.output and "about to fail" in out.output
    other = TestClient(web.app)
    sign_in(other, bots.register(redis_client, "nosy")[1])
    assert "about to fail" not in other.get("/bots/crasher/versions").text
