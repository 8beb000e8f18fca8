"""A hosted version's build: run once in the sandbox, its product stored and played; a build that
fails, loops or floods its output is failed with its output kept for the owner, never played."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
import redis

from arena.hosted.build import DEFAULT_BUILD_LIMITS, BuildLimits, check_sandbox
from arena.hosted.sandbox import SandboxError
from arena.play import hosted_versions
from arena.play.hosted import playable
from arena.play.hosted_build import build
from arena.services import bots, hosted
from arena.store.bot_versions import BuildState

C_PROGRAM = '#include <stdio.h>\nint main(void) { puts("built and running"); return 0; }\n'
QUICK = BuildLimits(wall_s=3.0, sandbox=replace(DEFAULT_BUILD_LIMITS.sandbox, output_mib=1))


@pytest.fixture
def cache() -> Iterator[Path]:
    """A cache the sandbox's user can reach (pytest's own folders are private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="arena-hosted-test-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder)


def submitted(client: redis.Redis, folder: Path, build_command: str) -> hosted.Submitted:
    folder.mkdir(parents=True)
    manifest = f'command = "./bot"\nbuild = "{build_command}"\nruntime = "native"\n'
    (folder / "arena-bot.toml").write_text(manifest)
    (folder / "bot.c").write_text(C_PROGRAM)
    bot, token = bots.register(client, folder.name)
    return hosted.submit(client, bot.name, folder, token, None)


def test_a_c_program_is_built_once_and_its_product_played(
    redis_client: redis.Redis, tmp_path: Path, cache: Path
) -> None:
    done = submitted(redis_client, tmp_path / "cbot", "cc -O2 -o bot bot.c && echo compiled")
    assert done.version.build is BuildState.PENDING
    info = build(redis_client, done.bot, done.version, QUICK, cache)
    assert info.build is BuildState.BUILT, info.build_output
    assert "compiled" in info.build_output and info.build_seconds is not None
    assert build(redis_client, done.bot, info, QUICK, cache) == info  # built once
    ready = playable(redis_client, "cbot", cache)
    assert (ready.folder / "bot").stat().st_mode & 0o111
    assert (ready.folder / "bot.c").read_text() == C_PROGRAM
    assert list(cache.glob(".building-*")) == []  # the scratch folder is gone


@pytest.mark.parametrize(
    ("command", "why"),
    [
        ("cc -o bot missing.c", "exited with code 1"),
        ("while :; do :; done", "ran longer than 3 s"),
        ("yes spam", "printed more than 1 MiB"),
        ("ln -s /etc/passwd leak", "must point inside"),
    ],
)
def test_a_failed_build_is_shown_to_the_owner_and_never_played(
    redis_client: redis.Redis, tmp_path: Path, cache: Path, command: str, why: str
) -> None:
    done = submitted(redis_client, tmp_path / "broken", command)
    token = bots.rotate_token(redis_client, "broken")[1]
    build(redis_client, done.bot, done.version, QUICK, cache)
    with pytest.raises(hosted.HostedError, match="failed to build"):
        playable(redis_client, f"broken@{done.version.version}", cache)
    info = hosted.versions(redis_client, "broken")[0]
    assert info.build is BuildState.FAILED
    output = hosted.build_output(redis_client, "broken", info.version, token, None)
    assert why in output and len(output) <= 16 * 1024 + 200
    with pytest.raises(hosted.HostedError, match="every version of bot broken failed"):
        playable(redis_client, "broken", cache)
    with pytest.raises(hosted.HostedError, match="neither"):
        hosted.build_output(redis_client, "broken", info.version, "not-the-token", None)


def test_a_newest_version_that_fails_to_build_gives_way_to_the_one_before(
    redis_client: redis.Redis, tmp_path: Path, cache: Path
) -> None:
    good = submitted(redis_client, tmp_path / "fallback", "cc -o bot bot.c")
    token = bots.rotate_token(redis_client, "fallback")[1]
    broken = tmp_path / "broken-source"
    broken.mkdir()
    (broken / "arena-bot.toml").write_text('command = "./bot"\nbuild = "exit 1"\n')
    newest = hosted.submit(redis_client, "fallback", broken, token, None).version
    assert (
        hosted_versions.played(hosted.versions(redis_client, "fallback")) == newest
    )  # not built yet
    ready = playable(redis_client, "fallback", cache)
    assert ready.version == good.version.version and (ready.folder / "bot").exists()
    found = hosted.versions(redis_client, "fallback")
    assert [v.build for v in found] == [BuildState.FAILED, BuildState.BUILT]
    assert hosted_versions.played(found) == found[1]


@pytest.fixture
def refused_namespaces(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A machine where bubblewrap is installed but refused namespaces (a web pod without the
    rights): a `bwrap` that says so and exits 1, first on the PATH."""
    folder = Path(tempfile.mkdtemp(prefix="arena-no-sandbox-"))
    folder.chmod(0o755)
    fake = folder / "bwrap"
    fake.write_text(
        "#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\nexit 1\n"
    )
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}:{os.environ['PATH']}")
    check_sandbox.cache_clear()
    yield
    check_sandbox.cache_clear()
    shutil.rmtree(folder)


def test_a_build_that_cannot_start_a_sandbox_leaves_the_version_for_a_machine_that_can(
    redis_client: redis.Redis, tmp_path: Path, cache: Path, refused_namespaces: None
) -> None:
    done = submitted(redis_client, tmp_path / "nosandbox", "cc -O2 -o bot bot.c")
    with pytest.raises(SandboxError, match="cannot start on this machine: bwrap: No permissions"):
        build(redis_client, done.bot, done.version, QUICK, cache)
    kept = hosted.versions(redis_client, "nosandbox")[0]
    assert kept.build is BuildState.PENDING  # not failed: a worker with a sandbox builds it
    assert hosted_versions.played([kept]) == kept
