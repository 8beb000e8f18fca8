"""Submitting hosted bots: who may, what is stored (once, content-addressed), what is refused
(with nothing stored), and the version a game plays, unpacked on this machine."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import redis

from arena.hosted.archive import SubmissionError, SubmissionLimits
from arena.hosted.manifest import ManifestError
from arena.play import hosted_versions
from arena.play.hosted import playable
from arena.services import bots, hosted
from arena.store import keys
from arena.store.backup import backup, restore
from arena.store.bot_versions import BotVersions, BuildState
from arena.store.bots import BotRegistryError

ADMIN = "admin-secret"


def bot_folder(folder: Path, body: str = "print('v1')\n", manifest: str | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "arena-bot.toml").write_text(
        manifest or 'command = "python3 bot.py"\nruntime = "python"\n'
    )
    (folder / "bot.py").write_text(body)
    return folder


def version_keys(client: redis.Redis) -> list[bytes]:
    return list(client.scan_iter(keys.bot_versions("*"))) + list(
        client.scan_iter(keys.bot_version("*", "*"))
    )


def test_the_owner_submits_and_the_same_files_are_one_version(
    redis_client: redis.Redis, tmp_path: Path
) -> None:
    _, token = bots.register(redis_client, "hostie")
    assert not hosted.is_hosted(redis_client, "hostie")
    first = hosted.submit(redis_client, "hostie", bot_folder(tmp_path / "a"), token, None)
    again = hosted.submit(redis_client, "hostie", bot_folder(tmp_path / "b"), token, None)
    assert first.new and not again.new
    assert again.version.version == first.version.version
    assert first.version.build is BuildState.NONE
    assert hosted.is_hosted(redis_client, "hostie")
    other = bot_folder(tmp_path / "c", body="print('v2')\n")
    second = hosted.submit(redis_client, "hostie", other, ADMIN, ADMIN).version  # organiser
    listed = hosted.versions(redis_client, "hostie")
    assert [info.version for info in listed] == [second.version, first.version.version]
    assert listed[1].files == 2 and listed[1].manifest["command"] == ["python3", "bot.py"]
    assert [(b.info.name, b.hosted) for b in bots.listing(redis_client)] == [
        ("hostie", second.version)
    ]


def test_an_archive_given_as_bytes_is_a_submission(
    redis_client: redis.Redis, tmp_path: Path
) -> None:
    import shutil

    _, token = bots.register(redis_client, "uploaded")
    folder = bot_folder(tmp_path / "src" / "mybot")
    archive = shutil.make_archive(str(tmp_path / "mybot"), "gztar", tmp_path / "src")
    from_bytes = hosted.submit(redis_client, "uploaded", Path(archive).read_bytes(), token, None)
    from_folder = hosted.submit(redis_client, "uploaded", folder, token, None)
    assert from_bytes.version.version == from_folder.version.version


@pytest.mark.parametrize(
    ("name", "token", "error", "message"),
    [
        ("ghost", "x", BotRegistryError, "no bot named 'ghost'"),
        ("owned", "wrong-token", hosted.HostedError, "neither bot owned's token"),
        ("owned", None, hosted.HostedError, "neither bot owned's token"),
        ("owned", "other", hosted.HostedError, "neither bot owned's token"),
    ],
)
def test_only_the_owner_or_the_organiser_may_submit(
    redis_client: redis.Redis,
    tmp_path: Path,
    name: str,
    token: str | None,
    error: type[Exception],
    message: str,
) -> None:
    bots.register(redis_client, "owned")
    _, other_token = bots.register(redis_client, "other")
    given = other_token if token == "other" else token
    with pytest.raises(error, match=message):
        hosted.submit(redis_client, name, bot_folder(tmp_path / "bot"), given, ADMIN)
    assert version_keys(redis_client) == []


def test_a_revoked_bot_takes_no_submission(redis_client: redis.Redis, tmp_path: Path) -> None:
    _, token = bots.register(redis_client, "gone")
    bots.revoke(redis_client, "gone")
    with pytest.raises(BotRegistryError, match="revoked"):
        hosted.submit(redis_client, "gone", bot_folder(tmp_path / "bot"), token, ADMIN)


def test_refused_submissions_store_nothing(redis_client: redis.Redis, tmp_path: Path) -> None:
    _, token = bots.register(redis_client, "refused")
    small = SubmissionLimits(archive_bytes=4096, unpacked_bytes=1000, files=10)
    big = bot_folder(tmp_path / "big", body="#" * 2000)
    with pytest.raises(SubmissionError, match="over the limit of"):
        hosted.submit(redis_client, "refused", big, token, None, small)
    no_command = bot_folder(tmp_path / "nocmd", manifest='runtime = "python"\n')
    with pytest.raises(ManifestError, match="names no command"):
        hosted.submit(redis_client, "refused", no_command, token, None)
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "bot.py").write_text("")
    with pytest.raises(ManifestError, match=r"no arena-bot\.toml"):
        hosted.submit(redis_client, "refused", bare, token, None)
    assert version_keys(redis_client) == []
    assert not hosted.is_hosted(redis_client, "refused")


def test_the_newest_version_is_played_from_a_cached_folder(
    redis_client: redis.Redis, tmp_path: Path
) -> None:
    _, token = bots.register(redis_client, "player")
    with pytest.raises(hosted.HostedError, match="no submitted version"):
        playable(redis_client, "hosted:player", tmp_path)
    old = hosted.submit(redis_client, "player", bot_folder(tmp_path / "a"), token, None)
    new = hosted.submit(
        redis_client, "player", bot_folder(tmp_path / "b", "print(2)\n"), token, None
    )
    cache = tmp_path / "cache"
    cache.mkdir()
    ready = playable(redis_client, "hosted:player", cache)
    assert (ready.version, ready.command) == (new.version.version, ("python3", "bot.py"))
    assert (ready.folder / "bot.py").read_text() == "print(2)\n"
    assert playable(redis_client, "player", cache).folder == ready.folder  # unpacked once
    pinned = playable(redis_client, f"player@{old.version.version[:6]}", cache)
    assert (pinned.folder / "bot.py").read_text() == "print('v1')\n"
    with pytest.raises(hosted.HostedError, match="has no version 'ffff'"):
        playable(redis_client, "player@ffff", cache)


def test_idle_cached_folders_are_pruned_and_unpacked_again(
    redis_client: redis.Redis, tmp_path: Path
) -> None:
    _, token = bots.register(redis_client, "cached")
    hosted.submit(redis_client, "cached", bot_folder(tmp_path / "a"), token, None)
    cache = tmp_path / "cache"
    cache.mkdir()
    first = playable(redis_client, "cached", cache).folder
    stale = cache / ".unpacking-left-by-a-crash"
    stale.mkdir()
    os.utime(first, (1, 1))
    os.utime(stale, (1, 1))
    assert sorted(hosted_versions.prune_cache(cache)) == sorted([first, stale])
    again = playable(redis_client, "cached", cache).folder
    assert again == first and (again / "bot.py").read_text() == "print('v1')\n"
    assert hosted_versions.prune_cache(cache) == []  # just used


def test_versions_survive_a_backup_and_restore(redis_client: redis.Redis, tmp_path: Path) -> None:
    _, token = bots.register(redis_client, "kept")
    stored = hosted.submit(redis_client, "kept", bot_folder(tmp_path / "a"), token, None)
    backup(redis_client, tmp_path / "store.backup")
    redis_client.flushdb()
    restore(redis_client, tmp_path / "store.backup")
    assert [v.version for v in hosted.versions(redis_client, "kept")] == [stored.version.version]
    cache = tmp_path / "cache"
    cache.mkdir()
    assert (playable(redis_client, "kept", cache).folder / "bot.py").exists()


def test_only_the_newest_versions_are_kept_and_the_played_one(
    redis_client: redis.Redis, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hosted, "KEPT_VERSIONS", 2)
    bot, token = bots.register(redis_client, "many")
    store = BotVersions(redis_client)
    first = hosted.submit(redis_client, "many", bot_folder(tmp_path / "0"), token, None).version
    failing = 'command = "./bot"\nbuild = "exit 1"\n'
    for n in (1, 2):
        folder = bot_folder(tmp_path / str(n), body=f"print({n})\n", manifest=failing)
        info = hosted.submit(redis_client, "many", folder, token, None).version
        store.record_build(bot.bot_id, info.version, None, "build failed", 0.1)
    kept = hosted.versions(redis_client, "many")
    assert len(kept) == 3 and kept[-1].version == first.version  # it plays: kept though oldest
    newest = hosted.submit(
        redis_client, "many", bot_folder(tmp_path / "3", "print(3)\n"), token, None
    )
    kept = hosted.versions(redis_client, "many")
    assert [v.version for v in kept][:1] == [newest.version.version] and len(kept) == 2
    assert store.files(bot.bot_id, first.version) is None
    assert store.get(bot.bot_id, first.version) is None
