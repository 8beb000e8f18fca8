"""Hosted bots: their owners submit programs, the arena stores each version and runs it.

`submit` stores a new version of a registered bot from a folder or an archive (content-addressed:
the same files give the same version, stored once) and marks the bot hosted; only the bot's
token or the admin token may. `versions` lists them; `build` runs a version's build command once,
in the sandbox; `playable` finds the version to play ("NAME" the newest playable one,
"NAME@VERSION" that one) with its folder on this machine (`materialise`, cached) and command.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import time
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
    unpack,
)
from arena.hosted.manifest import (
    MANIFEST_NAME,
    Manifest,
    ManifestError,
    missing_runtime,
    parse_manifest,
    runtime_folders,
)
from arena.store.bot_versions import BotVersions, BuildState, ProgramLog, VersionInfo
from arena.store.bots import BotInfo, BotRegistry, BotRegistryError, is_admin, token_hash

PREFIX = "hosted:"  # `arena play hosted:NAME` names a stored version, not a connected bot
CACHE_ENV = "ARENA_HOSTED_CACHE"
KEPT_VERSIONS = 10  # the newest versions of a bot kept in the store (and the one played)
CACHE_IDLE_S = 2 * 24 * 3600  # a version's folder unused this long leaves the cache


class HostedError(ValueError):
    """A hosted-bot operation refused; the message says why."""


@dataclass(frozen=True, slots=True)
class Submitted:
    bot: BotInfo
    version: VersionInfo
    new: bool  # False: these files were stored already, as this version


@dataclass(frozen=True, slots=True)
class Playable:
    """A version ready to start: its command, run in `folder` (read-only to the program)."""

    bot: str
    version: str
    command: tuple[str, ...]
    folder: Path
    runtime: str
    runtimes: tuple[Path, ...] = ()  # folders of the arena lent read-only (runtime_folders)


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
    bot = _bot(client, name)
    if is_admin(token, admin_token):
        return bot
    if token and registry.holds_token(bot.bot_id, token_hash(token)):
        return bot
    raise HostedError(f"that token is neither bot {name}'s token nor the admin token")


def _bot(client: redis.Redis, name: str) -> BotInfo:
    bot = BotRegistry(client).by_name(name)
    if bot is None:
        raise BotRegistryError(
            f"there is no bot named {name!r}: register it first (arena bot register)"
        )
    if bot.revoked is not None:
        raise BotRegistryError(f"bot {name} was revoked: it plays no more")
    return bot


def versions(client: redis.Redis, name: str) -> list[VersionInfo]:
    """Every version of bot `name`, the newest submitted first."""
    return BotVersions(client).all(_bot(client, name).bot_id)


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


def played(found: list[VersionInfo]) -> VersionInfo | None:
    """Of a bot's versions (newest first), the one "NAME" plays: the newest whose build did not
    fail (one not built yet is built first when it is played)."""
    return next((info for info in found if info.build is not BuildState.FAILED), None)


def is_hosted(client: redis.Redis, name: str) -> bool:
    """Whether `name` is a registered bot with a submitted version (the arena runs it)."""
    bot = BotRegistry(client).by_name(name)
    return bot is not None and BotVersions(client).is_hosted(bot.bot_id)


def parse_spec(spec: str) -> tuple[str, str | None]:
    """ "hosted:NAME@VERSION" (prefix and version optional) -> (NAME, VERSION or None)."""
    name, _, version = spec.removeprefix(PREFIX).partition("@")
    return name, version or None


def find_version(client: redis.Redis, spec: str) -> tuple[BotInfo, VersionInfo]:
    """The version `spec` names: "NAME@VERSION" (a prefix of its id will do), or "NAME" for
    the newest playable one."""
    name, wanted = parse_spec(spec)
    bot = _bot(client, name)
    store = BotVersions(client)
    if wanted is None:
        found = store.all(bot.bot_id)
        if not found:
            raise HostedError(f"bot {name} has no submitted version: arena bot submit {name} PATH")
        newest = played(found)
        if newest is None:
            raise HostedError(
                f"every version of bot {name} failed to build: see arena bot versions {name}"
            )
        return bot, newest
    matches = store.find(bot.bot_id, wanted)
    if len(matches) != 1:
        what = "no" if not matches else "more than one"
        raise HostedError(
            f"bot {name} has {what} version {wanted!r}: see arena bot versions {name}"
        )
    return bot, matches[0]


def cache_root() -> Path:
    """Where versions are unpacked on this machine: $ARENA_HOSTED_CACHE, else a folder of this
    user's under the system's temporary folder. It must be this user's and written by no one
    else, and readable by the sandbox's user (so not under a private home)."""
    given = os.environ.get(CACHE_ENV)
    root = (
        Path(given) if given else Path(tempfile.gettempdir(), f"caper-arena-hosted-{os.geteuid()}")
    )
    root.mkdir(mode=0o755, parents=True, exist_ok=True)
    info = root.stat()
    if info.st_uid != os.geteuid() or info.st_mode & 0o022:
        raise HostedError(
            f"{root} belongs to another user or others may write to it: set {CACHE_ENV}"
        )
    return root


def materialise(
    client: redis.Redis, bot_id: str, info: VersionInfo, root: Path | None = None
) -> Path:
    """The version's folder on this machine (built, if it has a build), unpacked once into the
    cache and reused: a folder appears there whole or not at all."""
    built = info.build is BuildState.BUILT
    root = root or cache_root()
    folder = root / f"{bot_id}-{info.version}-{'built' if built else 'source'}"
    if folder.is_dir():
        os.utime(folder)  # used now: kept by `prune_cache`
        return folder
    prune_cache(root)
    packed = BotVersions(client).files(bot_id, info.version, built)
    if packed is None:
        raise HostedError(f"the files of version {info.version} are missing from the store")
    partial = Path(tempfile.mkdtemp(prefix=".unpacking-", dir=root))
    try:
        partial.chmod(0o755)
        unpack(packed, partial)
        os.rename(partial, folder)
    except OSError:
        if not folder.is_dir():  # another process renaming its copy first is no error
            raise
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return folder


def prune_cache(root: Path, idle_s: float = CACHE_IDLE_S) -> list[Path]:
    """Remove the folders of `root` unused for `idle_s` (versions no game started from, and the
    scratch folders of builds or unpackings that died); the removed ones. A version removed is
    unpacked again when next played: the store keeps every version."""
    removed = []
    cutoff = time.time() - idle_s
    for path in root.iterdir():
        with contextlib.suppress(OSError):  # another process pruning or unpacking meanwhile
            if path.is_dir() and not path.is_symlink() and path.stat().st_mtime < cutoff:
                shutil.rmtree(path)
                removed.append(path)
    return removed


def playable(client: redis.Redis, spec: str, root: Path | None = None) -> Playable:
    """The version `spec` names, unpacked and ready to start; one not built yet is built first.
    A version named whose build failed is refused; for "NAME", a newest version whose build
    fails now gives way to the newest one before it that builds."""
    from arena.services.hosted_build import build

    bot, info = find_version(client, spec)
    while info.build is BuildState.PENDING:
        info = build(client, bot, info)
        if info.build is BuildState.FAILED and parse_spec(spec)[1] is None:
            bot, info = find_version(client, spec)  # the failed one is passed over now
    if info.build is BuildState.FAILED:
        raise HostedError(
            f"version {info.version} of bot {bot.name} failed to build: it is not played"
        )
    manifest = info.manifest
    if (missing := missing_runtime(str(manifest["runtime"]))) is not None:
        raise HostedError(f"bot {bot.name} cannot play here: {missing}")
    command = tuple(str(word) for word in manifest["command"])  # type: ignore[attr-defined]
    folder = materialise(client, bot.bot_id, info, root)
    runtime = str(manifest["runtime"])
    return Playable(bot.name, info.version, command, folder, runtime, runtime_folders(runtime))
