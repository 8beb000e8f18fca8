"""A hosted bot's versions page: its owner submits an archive (multipart, CSRF, size-limited)
and sees each version's build state, a failed build's output included; nobody else sees it."""

from __future__ import annotations

import io
import tarfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from starlette.testclient import TestClient

from arena.services import hosted
from arena.store.bots import BotRegistry
from arena.web.app import create_app
from arena.web.bot_versions import UPLOAD_LIMIT_BYTES
from arena.web.signer import WebSettings
from tests.hosted.programs import version_cache
from tests.web.signing import csrf_of, sign_in

ADMIN = "organiser-secret-token"
PYTHON_BOT = {"arena-bot.toml": b'command = "python3 bot.py"\nruntime = "python"\n'}


@pytest.fixture(autouse=True)
def cache() -> Iterator[Path]:
    with version_cache() as folder:
        yield folder


def tar_gz(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def owner_site(client: redis.Redis, name: str = "alpha") -> TestClient:
    _, token = BotRegistry(client).register(name)
    web = TestClient(create_app(client, WebSettings(ADMIN)))
    sign_in(web, token)
    return web


def upload(web: TestClient, name: str, archive: bytes, csrf: str | None = None) -> Any:
    csrf = csrf or csrf_of(web.get(f"/bots/{name}/versions").text, "submit-version")
    return web.post(
        f"/bots/{name}/versions",
        data={"csrf": csrf},
        files={"archive": ("bot.tar.gz", archive, "application/gzip")},
        follow_redirects=False,
    )


def test_the_owner_submits_an_archive_and_sees_the_version(redis_client: redis.Redis) -> None:
    web = owner_site(redis_client)
    listed = web.get("/bots").text
    assert "Versions" in listed and "hosted<" not in listed and "offline" in listed
    got = upload(web, "alpha", tar_gz({**PYTHON_BOT, "bot.py": b"print(1)\n"}))
    assert got.status_code == 303
    version = hosted.versions(redis_client, "alpha")[0].version
    shown = web.get("/bots/alpha/versions").text
    assert f"version {version} stored" in shown and f"<code>{version}</code>" in shown
    assert 'class="build-none"' in shown and 'class="played"' in shown
    assert hosted.is_hosted(redis_client, "alpha")
    listed = web.get("/bots").text
    assert f'class="online hosted" title="version {version}">hosted<' in listed


def test_a_failed_build_is_shown_to_its_owner_only(redis_client: redis.Redis) -> None:
    web = owner_site(redis_client)
    manifest = b'command = "./bot"\nbuild = "echo compiler says no; exit 3"\n'
    got = upload(web, "alpha", tar_gz({"arena-bot.toml": manifest}))
    assert got.status_code == 303
    shown = web.get("/bots/alpha/versions").text  # the build ran after the answer
    assert 'class="build-failed"' in shown and "compiler says no" in shown
    assert "exited with code 3" in shown
    other = owner_site(redis_client, "beta")
    refused = other.get("/bots/alpha/versions")
    assert refused.status_code == 403 and "compiler says no" not in refused.text
    anonymous = TestClient(web.app).get("/bots/alpha/versions", follow_redirects=False)
    assert anonymous.status_code == 303 and "compiler says no" not in anonymous.text


def test_refused_uploads_store_nothing(redis_client: redis.Redis) -> None:
    web = owner_site(redis_client)
    csrf = csrf_of(web.get("/bots/alpha/versions").text, "submit-version")
    traversal = upload(web, "alpha", tar_gz({**PYTHON_BOT, "../escape.py": b""}), csrf)
    assert traversal.status_code == 303
    assert "must stay inside the submission" in web.get("/bots/alpha/versions").text
    no_command = upload(web, "alpha", tar_gz({"arena-bot.toml": b'runtime = "node"\n'}), csrf)
    assert no_command.status_code == 303
    assert "names no command" in web.get("/bots/alpha/versions").text
    huge = web.post(
        "/bots/alpha/versions",
        content=b"x" * (UPLOAD_LIMIT_BYTES + 1),
        headers={"content-type": "multipart/form-data; boundary=b"},
    )
    assert huge.status_code == 413 and "over the limit" in huge.text
    other = owner_site(redis_client, "beta")
    theirs = upload(other, "alpha", tar_gz(PYTHON_BOT))
    assert theirs.status_code == 403
    assert hosted.versions(redis_client, "alpha") == []
    assert hosted.versions(redis_client, "beta") == []
