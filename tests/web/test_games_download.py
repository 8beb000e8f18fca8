"""The event's games download on the site and from the CLI: the same bytes, one file each."""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest
import redis
from click.testing import CliRunner

from arena.cli import main
from arena.services.event_games import export_games
from arena.web.app import create_app
from tests.web.browser import serve
from tests.workers.tournaments import create_and_start, work_in_process

pytestmark = pytest.mark.timeout(240)


@pytest.fixture
def web(redis_client: redis.Redis) -> Iterator[httpx.Client]:
    with serve(create_app(redis_client)) as server, httpx.Client(base_url=server.url) as client:
        yield client


def test_the_site_and_the_cli_give_the_same_gzipped_records(
    redis_client: redis.Redis, redis_server_url: str, web: httpx.Client, tmp_path: Path
) -> None:
    create_and_start(redis_client, "cup", "round-robin", ["random", "greedy", "search#4"])
    work_in_process(redis_client)
    page = web.get("/tournaments/cup")
    assert 'href="/tournaments/cup/games.jsonl.gz" id="games-download"' in page.text
    got = web.get("/tournaments/cup/games.jsonl.gz")
    assert got.status_code == 200
    assert got.headers["content-type"] == "application/gzip"
    assert got.headers["content-disposition"] == 'attachment; filename="cup.games.jsonl.gz"'
    assert "content-encoding" not in got.headers  # the file is gzip; the transfer is not
    assert got.content == b"".join(export_games(redis_client, "cup"))
    assert len(gzip.decompress(got.content).splitlines()) == 3 * 1 * 2  # rounds, boards, games
    env = {"REDIS_URL": redis_server_url}
    to_file = CliRunner().invoke(
        main, ["tournament", "export", "cup", "--games", str(tmp_path / "cup.gz")], env=env
    )
    assert to_file.exit_code == 0, to_file.output
    assert (tmp_path / "cup.gz").read_bytes() == got.content
    to_stdout = CliRunner().invoke(main, ["tournament", "export", "cup", "--games", "-"], env=env)
    assert to_stdout.exit_code == 0 and to_stdout.stdout_bytes == got.content


def test_an_unknown_event_is_a_404_and_a_one_line_error(
    redis_server_url: str, web: httpx.Client, tmp_path: Path
) -> None:
    assert web.get("/tournaments/nope/games.jsonl.gz").status_code == 404
    out = tmp_path / "nope.gz"
    got = CliRunner().invoke(
        main, ["tournament", "export", "nope", "--games", str(out)],
        env={"REDIS_URL": redis_server_url},
    )  # fmt: skip
    assert got.exit_code == 1
    assert got.output.strip().splitlines() == ["Error: no tournament named 'nope'"]
    assert not out.exists()
