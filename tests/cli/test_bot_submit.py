"""`arena bot submit` and `arena bot versions` against the real Redis: one line for a refusal."""

from __future__ import annotations

from pathlib import Path

import redis
from click.testing import CliRunner, Result

from arena.cli import main
from arena.services import bots
from tests.hosted.programs import version_cache


def arena(url: str, *args: str, token: str | None = None) -> Result:
    env = {"REDIS_URL": url, "ARENA_BOT_TOKEN": token}
    return CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)


def test_submit_then_list_the_versions(
    redis_client: redis.Redis, redis_server_url: str, tmp_path: Path
) -> None:
    _, token = bots.register(redis_client, "clihost")
    (tmp_path / "arena-bot.toml").write_text('command = "python3 bot.py"\nruntime = "python"\n')
    (tmp_path / "bot.py").write_text("print(1)\n")
    out = arena(redis_server_url, "bot", "submit", "clihost", str(tmp_path), token=token)
    assert out.exit_code == 0, out.output
    assert "Stored version" in out.output and "2 files" in out.output
    again = arena(redis_server_url, "bot", "submit", "clihost", str(tmp_path), token=token)
    assert "already" in again.output
    listed = arena(redis_server_url, "bot", "versions", "clihost")
    version = out.output.split("Stored version ")[1].split()[0]
    assert version in listed.output and "none" in listed.output and "python" in listed.output
    assert version in arena(redis_server_url, "bot", "list").output
    assert f"{version} *" in listed.output  # the one hosted:clihost plays


def test_refusals_are_one_line(
    redis_client: redis.Redis, redis_server_url: str, tmp_path: Path
) -> None:
    bots.register(redis_client, "clihost")
    out = arena(redis_server_url, "bot", "submit", "clihost", str(tmp_path), token="nope")
    assert out.exit_code == 1 and "neither bot clihost's token" in out.output
    out = arena(redis_server_url, "bot", "versions", "nobody")
    assert out.exit_code == 1 and "no bot named 'nobody'" in out.output
    out = CliRunner().invoke(
        main, ["bot", "submit", "clihost", str(tmp_path)], env={"REDIS_URL": None}
    )
    assert out.exit_code == 1 and "--site URL" in out.output
    assert "Traceback" not in out.output


def test_a_failed_build_is_printed_and_kept_for_the_owner(
    redis_client: redis.Redis, redis_server_url: str, tmp_path: Path
) -> None:
    _, token = bots.register(redis_client, "clihost")
    manifest = 'command = "./bot"\nbuild = "echo no compiler today >&2; exit 2"\n'
    (tmp_path / "arena-bot.toml").write_text(manifest)
    with version_cache():
        out = arena(redis_server_url, "bot", "submit", "clihost", str(tmp_path), token=token)
    assert out.exit_code == 1
    assert "no compiler today" in out.output and "failed to build" in out.output
    version = out.output.split("Stored version ")[1].split()[0]
    shown = arena(redis_server_url, "bot", "versions", "clihost", "--build-output", version)
    assert shown.exit_code == 1 and "neither bot clihost's token" in shown.output
    shown = arena(
        redis_server_url, "bot", "versions", "clihost", "--build-output", version, token=token
    )
    assert "no compiler today" in shown.output and "exited with code 2" in shown.output
    assert "failed" in arena(redis_server_url, "bot", "versions", "clihost").output
