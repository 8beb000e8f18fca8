"""A hosted bot's stored versions as this machine sees them: the one a spec names ("NAME" the
newest playable one, "NAME@VERSION" that one) and its folder here, unpacked once into a local
cache (`materialise`) and pruned when idle. Below submission, building and playing, which all
find and unpack versions through it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import time
from pathlib import Path

import redis

from arena.hosted.archive import unpack
from arena.store.bot_versions import BotVersions, BuildState, VersionInfo
from arena.store.bots import BotInfo, BotRegistry, BotRegistryError

PREFIX = "hosted:"  # `arena play hosted:NAME` names a stored version, not a connected bot
CACHE_ENV = "ARENA_HOSTED_CACHE"
CACHE_IDLE_S = 2 * 24 * 3600  # a version's folder unused this long leaves the cache


class HostedError(ValueError):
    """A hosted-bot operation refused; the message says why."""


def played(found: list[VersionInfo]) -> VersionInfo | None:
    """Of a bot's versions (newest first), the one "NAME" plays: the newest whose build did not
    fail (one not built yet is built first when it is played)."""
    return next((info for info in found if info.build is not BuildState.FAILED), None)


def parse_spec(spec: str) -> tuple[str, str | None]:
    """ "hosted:NAME@VERSION" (prefix and version optional) -> (NAME, VERSION or None)."""
    name, _, version = spec.removeprefix(PREFIX).partition("@")
    return name, version or None


def find_version(client: redis.Redis, spec: str) -> tuple[BotInfo, VersionInfo]:
    """The version `spec` names: "NAME@VERSION" (a prefix of its id will do), or "NAME" for
    the newest playable one."""
    name, wanted = parse_spec(spec)
    bot = registered_bot(client, name)
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


def registered_bot(client: redis.Redis, name: str) -> BotInfo:
    bot = BotRegistry(client).by_name(name)
    if bot is None:
        raise BotRegistryError(
            f"there is no bot named {name!r}: register it first (arena bot register)"
        )
    if bot.revoked is not None:
        raise BotRegistryError(f"bot {name} was revoked: it plays no more")
    return bot


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
