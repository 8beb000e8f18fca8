"""Building a hosted bot's version: once per version, by whichever process needs it first (the
one submitting it, or a worker about to play it), the others waiting for its result.

The submitted files are unpacked into a scratch folder, the build command runs there in the
sandbox (arena.hosted.build), and the folder it leaves is stored as the version's built archive,
under the same limits as a submission. A failed build is stored with its output and never played.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

import redis

from arena.hosted.archive import SubmissionError, pack, read_submission, unpack
from arena.hosted.build import DEFAULT_BUILD_LIMITS, BuildLimits, BuildResult, run_build
from arena.hosted.manifest import missing_runtime
from arena.play.hosted_versions import HostedError, cache_root
from arena.store.bot_versions import BotVersions, BuildState, VersionInfo
from arena.store.bots import BotInfo

WAIT_STEP_S = 0.2


def build(
    client: redis.Redis,
    bot: BotInfo,
    info: VersionInfo,
    limits: BuildLimits = DEFAULT_BUILD_LIMITS,
    root: Path | None = None,
) -> VersionInfo:
    """The version once built (or failed): built here, or waited for if another process is
    building it. A version with nothing to build is returned as it is."""
    store = BotVersions(client)
    if info.build is not BuildState.PENDING:
        return info
    claim_s = int(limits.wall_s) + 60
    if store.claim_build(bot.bot_id, info.version, claim_s):
        try:
            result = _run(store, bot, info, limits, root or cache_root())
            store.record_build(
                bot.bot_id, info.version, result[0], result[1].output, result[1].seconds
            )
        finally:
            store.release_build(bot.bot_id, info.version)
    return _wait(store, bot, info.version, time.monotonic() + claim_s)


def _run(
    store: BotVersions, bot: BotInfo, info: VersionInfo, limits: BuildLimits, root: Path
) -> tuple[bytes | None, BuildResult]:
    """The built archive (None if the build failed) and the build's result."""
    runtime = str(info.manifest["runtime"])
    if (missing := missing_runtime(runtime)) is not None:
        return None, BuildResult(False, f"build failed: {missing}", 0.0)
    source = store.files(bot.bot_id, info.version)
    if source is None:
        return None, BuildResult(False, "build failed: the submitted files are missing", 0.0)
    folder = Path(tempfile.mkdtemp(prefix=".building-", dir=root))
    try:
        folder.chmod(0o755)
        unpack(source, folder)
        result = run_build(str(info.manifest["build"]), folder, limits)
        if not result.ok:
            return None, result
        try:
            return pack(read_submission(folder))[1], result
        except SubmissionError as error:
            return None, BuildResult(
                False, f"{result.output}\nbuild failed: {error}", result.seconds
            )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _wait(store: BotVersions, bot: BotInfo, version: str, until: float) -> VersionInfo:
    while True:
        info = store.get(bot.bot_id, version)
        if info is None:
            raise HostedError(f"version {version} of bot {bot.name} is gone")
        if info.build is not BuildState.PENDING:
            return info
        if time.monotonic() > until:
            raise HostedError(f"version {version} of bot {bot.name} is still being built")
        time.sleep(WAIT_STEP_S)
