"""Backing up the store to a file and restoring it: every key of the database, DUMP and RESTORE.

DUMP/RESTORE goes through the Redis protocol alone, so it works the same on the embedded Redis
and on any REDIS_URL (a Redis in another pod, a hosted one): a snapshot file (BGSAVE) lives on
the Redis host, and `SYNC` (`redis-cli --rdb`) is refused by many hosted Redis and gives an RDB
that only a Redis as new as the source can load. RESTORE takes payloads of its own version and
older ones, so a store moves to a newer Redis; the manifest's Redis version refuses the other way
before anything is touched.

The keys are read in batches (no long block of Redis, no second copy of the store in memory),
so the snapshot is consistent when nothing writes meanwhile: a backup is refused while workers
are live or gateways hold bot streams (unless forced), and Redis's count of changes is compared
before and after the read; a read that saw writes is retried, then refused (forced: kept,
marked inconsistent).

The file is gzip: a manifest line (JSON) then one line a key, [key, ms to live or -1, payload],
bytes in base64. gzip's checksums catch a damaged file; a restore reads the whole file before it
changes the store, so a bad file never leaves half a store.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import gzip
import json
import os
import shutil
import tempfile
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

import redis

from arena import __version__
from arena.store import keys

FORMAT = "caper-arena-backup"
FORMAT_VERSION = 1
BATCH = 500
READ_ATTEMPTS = 3
T = TypeVar("T")


class BackupError(ValueError):
    """A backup or restore refused, or a file that is not a usable backup."""


@dataclass(frozen=True, slots=True)
class Manifest:
    arena_version: str
    store_schema: int
    rules_versions: dict[str, int]
    redis_version: str
    keys: int
    created: str  # UTC, ISO 8601
    consistent: bool  # False: forced while the store was being written
    format: str = FORMAT
    format_version: int = FORMAT_VERSION


Record = tuple[bytes, int, bytes]  # key, milliseconds to live (-1: none), DUMP payload


def live_writers(client: redis.Redis) -> list[str]:
    """What writes to the store now: RQ workers registered, gateways holding bot streams."""
    from rq import Worker

    found = []
    workers = sorted(worker.name for worker in Worker.all(connection=client))
    if workers:
        found.append(f"{len(workers)} worker(s) ({', '.join(workers)})")
    streams = sum(1 for _ in client.scan_iter(keys.bot_online("*"), count=BATCH))
    if streams:
        found.append(f"gateway(s) holding {streams} bot stream(s)")
    return found


def backup(client: redis.Redis, path: Path, force: bool = False) -> Manifest:
    """Write every key of the store to `path` (replaced only once the new file is complete)."""
    if not path.parent.is_dir():
        raise BackupError(f"no folder {path.parent} to write {path.name} in")
    _refuse_while_written(client, force, "back up")
    with tempfile.TemporaryDirectory(dir=path.parent.resolve()) as work:
        body = Path(work) / "keys.gz"
        count, consistent = _read_quietly(client, body)
        if not consistent and not force:
            raise BackupError(
                "the store changed while it was read, though no worker or gateway is live: "
                "retry, or pass --force to keep a snapshot taken while it is written"
            )
        manifest = _manifest(client, count, consistent)
        whole = Path(work) / "backup.gz"
        with whole.open("wb") as out:
            out.write(gzip.compress(json.dumps(asdict(manifest)).encode() + b"\n"))
            with body.open("rb") as records:  # gzip members in a row read as one stream
                shutil.copyfileobj(records, out)
        os.replace(whole, path)
    return manifest


def restore(
    client: redis.Redis, path: Path, replace: bool = False, force: bool = False
) -> Manifest:
    """Put the store of `path` into `client`'s database, after checking the whole file."""
    manifest = read_manifest(path)
    _check_redis_version(manifest, _redis_version(client))
    _check_readable(path, manifest)
    _refuse_while_written(client, force, "restore")
    present = int(client.dbsize())
    if present and not replace:
        raise BackupError(
            f"the store is not empty ({present} keys): restore into an empty one, or pass "
            f"--replace to delete them first"
        )
    if present:
        client.flushdb()
    for batch in _batches(_records(path)):
        pipe = client.pipeline(transaction=False)
        for key, ttl_ms, payload in batch:
            pipe.restore(key, max(ttl_ms, 0), payload, replace=True)
        pipe.execute()
    return manifest


def read_manifest(path: Path) -> Manifest:
    with _opened(path) as lines:
        first = next(lines, b"")
    try:
        fields = json.loads(first)
        manifest = Manifest(**fields) if fields.get("format") == FORMAT else None
    except (ValueError, TypeError, AttributeError):
        manifest = None
    if manifest is None:
        raise BackupError(f"{path} is not a Caper Arena backup (no manifest)")
    if manifest.format_version != FORMAT_VERSION:
        raise BackupError(
            f"{path} is a backup of format {manifest.format_version}; this arena reads "
            f"format {FORMAT_VERSION}"
        )
    if manifest.store_schema != keys.SCHEMA_VERSION:
        raise BackupError(
            f"{path} holds a store of schema {manifest.store_schema} (arena "
            f"{manifest.arena_version}); this arena uses schema {keys.SCHEMA_VERSION}"
        )
    return manifest


def _refuse_while_written(client: redis.Redis, force: bool, doing: str) -> None:
    writers = live_writers(client)
    if writers and not force:
        raise BackupError(
            f"cannot {doing} while the store is written by {' and '.join(writers)}: stop them, "
            f"or pass --force"
        )


def _read_quietly(client: redis.Redis, body: Path) -> tuple[int, bool]:
    """Read every key into `body`; retried while Redis counts changes made meanwhile."""
    for _ in range(READ_ATTEMPTS):
        before = changes_made(client)
        count = _write_records(client, body)
        if changes_made(client) == before:
            return count, True
    return count, False


def changes_made(client: redis.Redis) -> tuple[int, int]:
    """Redis's count of writes since its last snapshot, less the gateways' heartbeats (each one
    write, a counter, so an idle gateway does not spoil the read), and that snapshot's time."""
    beats = sorted(client.scan_iter(keys.gateway_beat(keys.gateway_wake("*")), count=BATCH))
    pipe = client.pipeline(transaction=True)  # one moment: the count and the beats agree
    pipe.info("persistence")
    for beat in beats:
        pipe.get(beat)
    info, *counts = pipe.execute()
    beaten = sum(int(count) for count in counts if count is not None)
    return int(info["rdb_changes_since_last_save"]) - beaten, int(info["rdb_last_save_time"])


def _write_records(client: redis.Redis, body: Path) -> int:
    count = 0
    with gzip.open(body, "wb", compresslevel=6) as out:  # level 9 is much slower, barely smaller
        for batch in _batches(client.scan_iter(count=BATCH)):
            pipe = client.pipeline(transaction=False)
            for key in batch:
                pipe.pttl(key)
                pipe.dump(key)
            answers = pipe.execute()
            for key, ttl_ms, payload in zip(batch, answers[::2], answers[1::2], strict=True):
                if payload is None:
                    continue  # gone (expired) between the scan and the read
                out.write(_line(key, int(ttl_ms), payload))
                count += 1
    return count


def _line(key: bytes, ttl_ms: int, payload: bytes) -> bytes:
    fields = [base64.b64encode(key).decode(), ttl_ms, base64.b64encode(payload).decode()]
    return json.dumps(fields).encode() + b"\n"


def _manifest(client: redis.Redis, count: int, consistent: bool) -> Manifest:
    from arena.games import GAMES

    return Manifest(
        arena_version=__version__,
        store_schema=keys.SCHEMA_VERSION,
        rules_versions={game_id: game.rules_version for game_id, game in GAMES.items()},
        redis_version=_redis_version(client),
        keys=count,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        consistent=consistent,
    )


def _redis_version(client: redis.Redis) -> str:
    return str(client.info("server")["redis_version"])


def _check_redis_version(manifest: Manifest, target: str) -> None:
    if _major_minor(target) < _major_minor(manifest.redis_version):
        raise BackupError(
            f"the backup was made on Redis {manifest.redis_version}; this Redis is {target}, "
            f"older, and cannot read it: restore into Redis {manifest.redis_version} or newer"
        )


def _major_minor(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split(".")[:2] if part.isdigit())


def _check_readable(path: Path, manifest: Manifest) -> None:
    count = sum(1 for _ in _records(path))
    if count != manifest.keys:
        raise BackupError(f"{path} is damaged: {count} keys of the {manifest.keys} it announces")


def _records(path: Path) -> Iterator[Record]:
    with _opened(path) as lines:
        next(lines, None)  # the manifest
        for number, line in enumerate(lines, start=2):
            try:
                key, ttl_ms, payload = json.loads(line)
                yield base64.b64decode(key), int(ttl_ms), base64.b64decode(payload)
            except (ValueError, TypeError, binascii.Error):
                raise BackupError(f"{path} is damaged: line {number} is no key") from None


@contextlib.contextmanager
def _opened(path: Path) -> Iterator[Iterator[bytes]]:
    """The lines of the gzip file `path`, with one clear error for a file that is not one."""
    if not path.is_file():
        raise BackupError(f"no backup file {path}")
    with gzip.open(path, "rb") as stream:
        yield _checked_lines(path, stream)


def _checked_lines(path: Path, stream: Iterable[bytes]) -> Iterator[bytes]:
    try:
        yield from stream
    except (OSError, EOFError, zlib.error):
        raise BackupError(f"{path} is damaged or not a backup (bad gzip data)") from None


def _batches(items: Iterable[T], size: int = BATCH) -> Iterator[list[T]]:
    batch: list[T] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch
