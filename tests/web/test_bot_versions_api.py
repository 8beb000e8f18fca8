"""The site's API for a hosted bot's owner, over a real server: `arena bot submit --site` and
`arena bot versions --site` with the bot's token; the session cookie never authorises it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from click.testing import CliRunner, Result
from starlette.testclient import TestClient

from arena.cli import main
from arena.services import bots, hosted
from arena.services.signin import SignInLimits
from arena.store.bot_versions import BuildState
from arena.web.app import create_app
from arena.web.server import serving
from arena.web.signer import WebSettings
from tests.hosted.programs import version_cache
from tests.web.signing import sign_in

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(autouse=True)
def cache() -> Iterator[Path]:
    with version_cache() as folder:
        yield folder


def arena(*args: str, token: str | None = None) -> Result:
    env = {"ARENA_BOT_TOKEN": token, "REDIS_URL": None, "COLUMNS": "200"}
    return CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)


def c_bot(folder: Path, build: str = "cc -O2 -o bot bot.c") -> Path:
    folder.mkdir()
    (folder / "arena-bot.toml").write_text(f'command = "./bot"\nbuild = "{build}"\n')
    (folder / "bot.c").write_text("int main(void) { return 0; }\n")
    return folder


def test_an_owner_submits_from_their_machine_and_the_site_builds_it(
    redis_client: redis.Redis, tmp_path: Path
) -> None:
    _, token = bots.register(redis_client, "remote")
    with serving(redis_client) as url:
        out = arena(
            "bot", "submit", "remote", str(c_bot(tmp_path / "c")), "--site", url, token=token
        )
        assert out.exit_code == 0, out.output
        assert "Stored version" in out.output and "Built in" in out.output
        listed = arena("bot", "versions", "remote", "--site", url, token=token)
    version = hosted.versions(redis_client, "remote")[0]
    assert version.build is BuildState.BUILT
    assert f"{version.version} *" in listed.output and "built" in listed.output


def test_a_failed_build_and_refusals_over_the_api(
    redis_client: redis.Redis, tmp_path: Path
) -> None:
    _, token = bots.register(redis_client, "remote")
    broken = c_bot(tmp_path / "broken", build="echo nothing to see >&2; exit 4")
    with serving(redis_client, settings=WebSettings("admin-token")) as url:
        out = arena("bot", "submit", "remote", str(broken), "--site", url, token=token)
        assert out.exit_code == 1 and "nothing to see" in out.output
        assert "failed to build" in out.output
        version = hosted.versions(redis_client, "remote")[0].version
        shown = arena(
            "bot", "versions", "remote", "--site", url, "--build-output", version[:5], token=token
        )
        assert "exited with code 4" in shown.output
        wrong = arena("bot", "submit", "remote", str(broken), "--site", url, token="not-it")
        assert wrong.exit_code == 1 and "neither bot remote's token" in wrong.output
        ghost = arena("bot", "versions", "ghost", "--site", url, token=token)
        assert ghost.exit_code == 1 and "no bot named 'ghost'" in ghost.output
        admin = arena("bot", "versions", "remote", "--site", url, token="admin-token")
        assert admin.exit_code == 0 and version in admin.output
    gone = arena("bot", "versions", "remote", "--site", url, token=token)
    assert gone.exit_code == 1 and "cannot reach the site" in gone.output
    assert "Traceback" not in gone.output + wrong.output + ghost.output


def test_the_api_takes_a_token_never_the_session_cookie(redis_client: redis.Redis) -> None:
    _, token = bots.register(redis_client, "remote")
    web = TestClient(create_app(redis_client, WebSettings("admin-token")))
    sign_in(web, token)  # a signed-in owner's browser, cookie and all
    posted = web.post("/api/bots/remote/versions", content=b"anything")
    assert posted.status_code == 401 and "Bearer" in posted.json()["error"]
    assert web.get("/api/bots/remote/versions").status_code == 401
    headers = {"authorization": f"Bearer {token}"}
    huge = web.post("/api/bots/remote/versions", content=b"x" * (9 * 1024 * 1024), headers=headers)
    assert huge.status_code == 413
    bad = web.post("/api/bots/remote/versions", content=b"not an archive", headers=headers)
    assert bad.status_code == 400 and "not a .tar.gz" in bad.json()["error"]
    assert hosted.versions(redis_client, "remote") == []


def test_wrong_tokens_count_as_failed_sign_ins_and_lock_the_api_out(
    redis_client: redis.Redis,
) -> None:
    _, token = bots.register(redis_client, "remote")
    web = TestClient(create_app(redis_client, WebSettings("admin-token")))
    for attempt in range(SignInLimits().failures):
        wrong = {"authorization": f"Bearer wrong-{attempt}"}
        assert web.get("/api/bots/remote/versions", headers=wrong).status_code == 403
    right = {"authorization": f"Bearer {token}"}
    locked = web.get("/api/bots/remote/versions", headers=right)
    assert locked.status_code == 429 and "too many failed sign-ins" in locked.json()["error"]
    other = TestClient(web.app, client=("10.1.2.3", 50000))  # another address, another prefix
    assert other.get("/api/bots/remote/versions", headers=right).status_code == 200
