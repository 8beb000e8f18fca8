"""The versions of a hosted bot: each a canonical archive of its submitted files, named by the
start of its sha256, with its manifest, its build's state and output, and once built the archive
of its folder after the build (so the build runs once, and every worker plays what it made).

A bot with a version is hosted (its `hosted` field): the arena runs it, nobody connects it.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from enum import StrEnum

import redis

from arena.store import keys
from arena.store.values import as_bytes, as_text

VERSION_CHARS = 12  # hex characters of the sha256 that name a version
BUILD_OUTPUT_KEPT = 16 * 1024  # characters of a build's output kept for the owner


class BuildState(StrEnum):
    NONE = "none"  # no build command: playable as submitted
    PENDING = "pending"  # not built yet
    BUILT = "built"
    FAILED = "failed"  # never played

    @property
    def playable(self) -> bool:
        return self in (BuildState.NONE, BuildState.BUILT)


@dataclass(frozen=True, slots=True)
class VersionInfo:
    version: str
    sha256: str
    size: int  # bytes of the stored (gzipped) archive
    unpacked: int  # bytes of its files
    files: int
    created: float
    submitted: float  # the last time these files were submitted
    manifest: dict[str, object]
    build: BuildState
    build_output: str = ""
    build_seconds: float | None = None


STDERR_KEPT = 16 * 1024  # characters of a hosted program's stderr kept after its last match


@dataclass(frozen=True, slots=True)
class ProgramLog:
    """A hosted bot's program at the end of its last match, for its owner."""

    version: str
    stderr: str
    why: str  # why it stopped before the match's end, "" if it played to the end
    ended: float


class BotVersions:
    def __init__(self, client: redis.Redis) -> None:
        self._redis = client

    def add(
        self,
        bot_id: str,
        sha256: str,
        packed: bytes,
        unpacked: int,
        files: int,
        manifest: dict[str, object],
    ) -> tuple[VersionInfo, bool]:
        """Store a version (unless these files are stored already) and mark the bot hosted;
        return the version and whether it is new. Submitting it again makes it the newest."""
        version = sha256[:VERSION_CHARS]
        now = time.time()
        key = keys.bot_version(bot_id, version)
        new = not self._redis.exists(key)
        pipe = self._redis.pipeline()
        if new:
            state = BuildState.PENDING if manifest.get("build") else BuildState.NONE
            pipe.set(keys.bot_version_files(bot_id, version), packed)
            pipe.hset(key, mapping={
                "sha256": sha256, "size": len(packed), "unpacked": unpacked, "files": files,
                "created": now, "manifest": json.dumps(manifest), "build": state.value,
            })  # fmt: skip
        pipe.zadd(keys.bot_versions(bot_id), {version: now})
        pipe.hset(keys.bot(bot_id), "hosted", 1)
        pipe.execute()
        info = self.get(bot_id, version)
        assert info is not None  # just written
        return info, new

    def newest(self, bot_id: str) -> str | None:
        """The id of the bot's newest submitted version, or None."""
        found = self._redis.zrevrange(keys.bot_versions(bot_id), 0, 0)
        return next((as_text(v) for v in found if isinstance(v, (bytes, str))), None)

    def newest_of(self, bot_ids: list[str]) -> dict[str, str]:
        """Each hosted bot's newest version id, of `bot_ids`, in one round trip."""
        pipe = self._redis.pipeline(transaction=False)
        for bot_id in bot_ids:
            pipe.zrevrange(keys.bot_versions(bot_id), 0, 0)
        found = zip(bot_ids, pipe.execute(), strict=True)
        return {bot_id: as_text(newest[0]) for bot_id, newest in found if newest}

    def is_hosted(self, bot_id: str) -> bool:
        return bool(self._redis.hget(keys.bot(bot_id), "hosted"))

    def get(self, bot_id: str, version: str) -> VersionInfo | None:
        data = self._redis.hgetall(keys.bot_version(bot_id, version))
        submitted = self._redis.zscore(keys.bot_versions(bot_id), version)
        if not data or submitted is None:
            return None
        fields = {as_text(key): as_text(value) for key, value in data.items()}
        seconds = fields.get("build_seconds")
        return VersionInfo(
            version,
            fields["sha256"],
            int(fields["size"]),
            int(fields["unpacked"]),
            int(fields["files"]),
            float(fields["created"]),
            submitted,
            json.loads(fields["manifest"]),
            BuildState(fields["build"]),
            fields.get("build_output", ""),
            None if seconds is None else float(seconds),
        )

    def all(self, bot_id: str) -> list[VersionInfo]:
        """Every version of the bot, the newest submitted first."""
        found_ids = self._redis.zrevrange(keys.bot_versions(bot_id), 0, -1)
        ids = [as_text(v) for v in found_ids if isinstance(v, (bytes, str))]
        found = (self.get(bot_id, version) for version in ids)
        return [info for info in found if info is not None]

    def find(self, bot_id: str, prefix: str) -> list[VersionInfo]:
        """The versions whose id starts with `prefix` (an id may be given shortened)."""
        return [info for info in self.all(bot_id) if info.version.startswith(prefix)]

    def files(self, bot_id: str, version: str, built: bool = False) -> bytes | None:
        """The version's archive as submitted, or (`built`) its folder after the build."""
        value = self._redis.get(keys.bot_version_files(bot_id, version, built))
        return None if value is None else as_bytes(value)

    def record_build(
        self, bot_id: str, version: str, built: bytes | None, output: str, seconds: float
    ) -> None:
        """The build's end: `built` is the archive of the folder it made, None if it failed."""
        state = BuildState.BUILT if built is not None else BuildState.FAILED
        pipe = self._redis.pipeline()
        if built is not None:
            pipe.set(keys.bot_version_files(bot_id, version, built=True), built)
        pipe.hset(
            keys.bot_version(bot_id, version),
            mapping={
                "build": state.value,
                "build_output": output[-BUILD_OUTPUT_KEPT:],
                "build_seconds": seconds,
            },
        )
        pipe.execute()

    def remove(self, bot_id: str, version: str) -> None:
        """Forget a version: its record and both its archives."""
        pipe = self._redis.pipeline()
        pipe.zrem(keys.bot_versions(bot_id), version)
        pipe.delete(
            keys.bot_version(bot_id, version),
            keys.bot_version_files(bot_id, version),
            keys.bot_version_files(bot_id, version, built=True),
        )
        pipe.execute()

    def record_log(self, bot_id: str, version: str, stderr: str, why: str) -> None:
        """What the bot's program wrote to stderr (its end) in the match just over."""
        self._redis.hset(
            keys.bot_program_log(bot_id),
            mapping={
                "version": version,
                "stderr": stderr[-STDERR_KEPT:],
                "why": why,
                "ended": time.time(),
            },
        )

    def program_log(self, bot_id: str) -> ProgramLog | None:
        data = self._redis.hgetall(keys.bot_program_log(bot_id))
        if not data:
            return None
        fields = {as_text(key): as_text(value) for key, value in data.items()}
        return ProgramLog(
            fields["version"], fields["stderr"], fields["why"], float(fields["ended"])
        )

    def claim_build(self, bot_id: str, version: str, ttl_s: int) -> bool:
        """Whether this process may build the version now (no other holds the claim)."""
        return bool(
            self._redis.set(keys.bot_version_build_lock(bot_id, version), 1, nx=True, ex=ttl_s)
        )

    def release_build(self, bot_id: str, version: str) -> None:
        self._redis.delete(keys.bot_version_build_lock(bot_id, version))
