"""Hosted bots: their owners submit programs, the arena stores each version and runs it.

`submit` stores a new version of a registered bot from a folder or an archive (content-addressed:
the same files give the same version, stored once) and marks the bot hosted; only the bot's
token or the admin token may. `versions` lists them, `build_output` and `program_log` show their
owner how a build and the last match went. Building a version and making it ready to play are
the playing layer's (arena.play.hosted_build, arena.play.hosted), which the workers reach without
coming up here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import redis

from arena.hosted.archive import (
    DEFAULT_SUBMISSION_LIMITS,
    Entry,
    SubmissionError,
    SubmissionLimits,
    pack,
    read_archive_bytes,
    read_submission,
)
from arena.hosted.manifest import (
    MANIFEST_NAME,
    Manifest,
    ManifestError,
    parse_manifest,
)
from arena.play.hosted_versions import (
    HostedError as HostedError,  # the error every hosted-bot operation raises
)
from arena.play.hosted_versions import (
    find_version,
    registered_bot,
)
from arena.store.bot_versions import BotVersions, BuildState, ProgramLog, VersionInfo
from arena.store.bots import BotInfo, BotRegistry, is_admin, token_hash

KEPT_VERSIONS = 10  # the newest versions of a bot kept in the store (and the one played)


@dataclass(frozen=True, slots=True)
class Submitted:
    bot: BotInfo
    version: VersionInfo
    new: bool  # False: these files were stored already, as this version


def submit(
    client: redis.Redis,
    name: str,
    source: Path | bytes,
    token: str | None,
    admin_token: str | None,
    limits: SubmissionLimits = DEFAULT_SUBMISSION_LIMITS,
) -> Submitted:
    """Store the folder or archive `source` (a path, or an upload's bytes) as a version of bot
    `name`, after checking the token, the files and the manifest: nothing is stored unless all
    of them pass."""
    return store_version(client, _owned_bot(client, name, token, admin_token), source, limits)


def store_version(
    client: redis.Redis,
    bot: BotInfo,
    source: Path | bytes,
    limits: SubmissionLimits = DEFAULT_SUBMISSION_LIMITS,
) -> Submitted:
    """Store `source` as a version of `bot`, whose owner the caller checked (`submit` by a
    token, the web site by its session)."""
    if isinstance(source, Path):
        entries = read_submission(source, limits)
    else:
        entries = read_archive_bytes(source, limits)
    manifest = _manifest_of(entries)
    sha256, packed = pack(entries)
    if len(packed) > limits.archive_bytes:
        raise SubmissionError(
            f"the submission packs to {len(packed)} bytes, over the limit of {limits.archive_bytes}"
        )
    unpacked = sum(len(entry.data) for entry in entries)
    info, new = BotVersions(client).add(
        bot.bot_id, sha256, packed, unpacked, len(entries), manifest.to_dict()
    )
    _forget_old_versions(client, bot)
    return Submitted(bot, info, new)


def _forget_old_versions(client: redis.Redis, bot: BotInfo) -> None:
    """Keep the newest KEPT_VERSIONS versions, and the newest one known to play (built, or
    with nothing to build) if it is older, for newer ones may yet fail to build: each version
    may hold megabytes, and Redis keeps everything in memory."""
    store = BotVersions(client)
    found = store.all(bot.bot_id)
    kept = {info.version for info in found[:KEPT_VERSIONS]}
    if (good := next((info for info in found if info.build.playable), None)) is not None:
        kept.add(good.version)
    for info in found:
        if info.version not in kept:
            store.remove(bot.bot_id, info.version)


def _manifest_of(entries: list[Entry]) -> Manifest:
    for entry in entries:
        if entry.name == MANIFEST_NAME and not entry.link:
            return parse_manifest(entry.data)
    raise ManifestError(
        f"the submission has no {MANIFEST_NAME} at its top: write one with the command that "
        'starts the bot, e.g. command = "python3 bot.py"'
    )


def _owned_bot(
    client: redis.Redis, name: str, token: str | None, admin_token: str | None
) -> BotInfo:
    """The bot named `name`, if `token` is its token or the admin token."""
    registry = BotRegistry(client)
    bot = registered_bot(client, name)
    if is_admin(token, admin_token):
        return bot
    if token and registry.holds_token(bot.bot_id, token_hash(token)):
        return bot
    raise HostedError(f"that token is neither bot {name}'s token nor the admin token")


def versions(client: redis.Redis, name: str) -> list[VersionInfo]:
    """Every version of bot `name`, the newest submitted first."""
    return BotVersions(client).all(registered_bot(client, name).bot_id)


def owner_versions(
    client: redis.Redis, name: str, token: str | None, admin_token: str | None
) -> list[VersionInfo]:
    """Every version of bot `name` with its build output, for its owner or the admin."""
    return BotVersions(client).all(_owned_bot(client, name, token, admin_token).bot_id)


def build_output(
    client: redis.Redis, name: str, version: str, token: str | None, admin_token: str | None
) -> str:
    """What the build of bot `name`'s `version` wrote (its end), for its owner or the admin."""
    _owned_bot(client, name, token, admin_token)
    _, info = find_version(client, f"{name}@{version}")
    if info.build is BuildState.NONE:
        return f"version {info.version} has no build command"
    if info.build is BuildState.PENDING:
        return f"version {info.version} has not been built yet"
    return info.build_output


def program_log(
    client: redis.Redis, name: str, token: str | None, admin_token: str | None
) -> ProgramLog | None:
    """The end of what bot `name`'s program wrote to stderr in its last match, and why it
    stopped early if it did; for its owner or the admin."""
    return BotVersions(client).program_log(_owned_bot(client, name, token, admin_token).bot_id)


def is_hosted(client: redis.Redis, name: str) -> bool:
    """Whether `name` is a registered bot with a submitted version (the arena runs it)."""
    bot = BotRegistry(client).by_name(name)
    return bot is not None and BotVersions(client).is_hosted(bot.bot_id)
