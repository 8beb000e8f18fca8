"""`arena play hosted:NAME`: a stored version plays locally, built first if it was not yet; the
C example, submitted as source, is compiled by the build step and plays."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from click.testing import CliRunner, Result

from arena.cli import main
from arena.hosted.program import Program
from arena.play.hosted import playable
from arena.services import bots, hosted
from arena.store.bot_versions import BuildState
from tests.hosted.programs import version_cache

C_EXAMPLE = Path(__file__).resolve().parents[2] / "bots_sdk" / "examples" / "c"
SDK_EXAMPLE = C_EXAMPLE.parent / "hosted_python"


@pytest.fixture(autouse=True)
def cache() -> Iterator[Path]:
    with version_cache() as folder:
        yield folder


def arena(url: str, *args: str) -> Result:
    return CliRunner().invoke(main, list(args), env={"REDIS_URL": url}, catch_exceptions=False)


def test_the_c_example_is_built_from_source_and_plays(
    redis_client: redis.Redis, redis_server_url: str, tmp_path: Path
) -> None:
    _, token = bots.register(redis_client, "cbot")
    submitted = hosted.submit(redis_client, "cbot", C_EXAMPLE, token, None)
    assert submitted.version.build is BuildState.PENDING
    saved = tmp_path / "games"
    out = arena(redis_server_url, "play", "hosted:cbot", "greedy", "-n", "3", "--save", str(saved))
    assert out.exit_code == 0, out.output
    assert "3 games" in out.output and "hosted:" in out.output
    assert "stopped playing" not in out.output
    records = [json.loads(path.read_text()) for path in sorted(saved.glob("*.json"))]
    assert [record["termination"] for record in records] == ["normal"] * 3
    assert hosted.versions(redis_client, "cbot")[0].build is BuildState.BUILT
    pinned = f"hosted:cbot@{submitted.version.version}"
    out = arena(redis_server_url, "play", "random", pinned, "-n", "2", "--game", "age-of-thieves")
    assert out.exit_code == 0, out.output
    assert "stopped playing" not in out.output


def test_a_python_program_plays_as_submitted(
    redis_client: redis.Redis, redis_server_url: str, tmp_path: Path
) -> None:
    from tests.hosted.programs import MAIN, PLAIN, PRELUDE

    (tmp_path / "arena-bot.toml").write_text('command = "python3 bot.py"\nruntime = "python"\n')
    (tmp_path / "bot.py").write_text(PRELUDE + PLAIN + MAIN)
    _, token = bots.register(redis_client, "pybot")
    hosted.submit(redis_client, "pybot", tmp_path, token, None)
    out = arena(redis_server_url, "play", "greedy", "hosted:pybot", "-n", "2")
    assert out.exit_code == 0, out.output
    assert "hosted:" in out.output and "stopped playing" not in out.output


def test_unknown_and_unbuildable_hosted_bots_are_one_line(
    redis_client: redis.Redis, redis_server_url: str, tmp_path: Path
) -> None:
    out = arena(redis_server_url, "play", "hosted:ghost", "greedy")
    assert out.exit_code == 1 and "no bot named 'ghost'" in out.output
    (tmp_path / "arena-bot.toml").write_text('command = "./bot"\nbuild = "exit 3"\n')
    _, token = bots.register(redis_client, "broken")
    version = hosted.submit(redis_client, "broken", tmp_path, token, None).version.version
    out = arena(redis_server_url, "play", "hosted:broken", "greedy")
    assert out.exit_code == 1 and "every version of bot broken failed to build" in out.output
    out = arena(redis_server_url, "play", f"hosted:broken@{version}", "greedy")
    assert out.exit_code == 1 and "failed to build: it is not played" in out.output
    assert "Traceback" not in out.output


def test_the_sdk_example_plays_with_the_sdk_lent_and_nothing_else_of_the_arena(
    redis_client: redis.Redis, redis_server_url: str, tmp_path: Path
) -> None:
    _, token = bots.register(redis_client, "sdkbot")
    hosted.submit(redis_client, "sdkbot", SDK_EXAMPLE, token, None)
    saved = tmp_path / "games"
    out = arena(
        redis_server_url, "play", "hosted:sdkbot", "random", "-n", "2", "--save", str(saved)
    )
    assert out.exit_code == 0, out.output
    assert "stopped playing" not in out.output
    records = [json.loads(path.read_text()) for path in sorted(saved.glob("*.json"))]
    assert [record["termination"] for record in records] == ["normal"] * 2
    probe = tmp_path / "probe"
    probe.mkdir()
    (probe / "arena-bot.toml").write_text('command = "python3 bot.py"\nruntime = "python"\n')
    repository = Path(hosted.__file__).resolve().parents[2]
    seen = f"os.path.exists({str(repository / 'pyproject.toml')!r})"
    (probe / "bot.py").write_text(
        f"import bots_sdk, os, sys\nprint('SEEN', {seen}, file=sys.stderr)\n"
    )
    hosted.submit(redis_client, "sdkbot", probe, token, None)
    ready = playable(redis_client, "sdkbot")
    program = Program(
        ready.command, ready.folder, runtimes=ready.runtimes, hello_s=5.0, runtime=ready.runtime
    )
    program.start()
    program.stop()
    assert "SEEN False" in program.stderr  # bots_sdk imported, the repository around it unseen
