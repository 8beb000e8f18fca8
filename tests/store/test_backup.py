"""Backing up the store to a file and restoring it, on the suite's real Redis."""

from __future__ import annotations

import gzip
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from click.testing import CliRunner
from rq import Worker

from arena.cli import main
from arena.gateway.server import GatewaySettings, GatewayThread
from arena.store import keys
from arena.store.backup import BackupError, backup, changes_made, read_manifest, restore
from arena.store.bots import BotRegistry
from arena.store.job_queue import QUEUE_NAME
from bots_sdk.live_check import wait_until
from tests.store.contents import contents


def fill(client: redis.Redis, redis_server_url: str) -> None:
    """A store as the commands leave it: a bot, a ladder, a tournament, a key that expires."""
    url = ["--redis-url", redis_server_url]
    for args in (
        ["bot", "register", "mybot"],
        ["ladder", "create", "main"],
        ["tournament", "create", "cup", "--entrants", "random,greedy,search#4"],
    ):
        assert CliRunner().invoke(main, [*args, *url]).exit_code == 0
    client.set("arena:test:expiring", "soon", ex=3600)


@pytest.fixture
def worker_registered(redis_client: redis.Redis) -> Iterator[Worker]:
    worker = Worker([QUEUE_NAME], connection=redis_client, name="w-backup")
    worker.register_birth()  # type: ignore[no-untyped-call]
    yield worker
    worker.register_death()  # type: ignore[no-untyped-call]


def test_a_restore_gives_back_every_key_and_its_expiry(
    redis_client: redis.Redis, redis_server_url: str, tmp_path: Path
) -> None:
    fill(redis_client, redis_server_url)
    before = contents(redis_client)
    manifest = backup(redis_client, tmp_path / "store.backup")
    assert manifest.keys == len(before) and manifest.consistent
    assert manifest.redis_version == redis_client.info("server")["redis_version"]
    assert manifest.store_schema == keys.SCHEMA_VERSION
    assert manifest.rules_versions == {"caper": 1, "caper-europe": 1, "age-of-thieves": 2}
    redis_client.flushdb()

    restore(redis_client, tmp_path / "store.backup")
    assert contents(redis_client) == before
    assert 3_500_000 < redis_client.pttl("arena:test:expiring") <= 3_600_000
    assert redis_client.ttl(keys.bot_names()) == -1


def test_a_restore_into_a_store_with_keys_needs_replace(
    redis_client: redis.Redis, redis_server_url: str, tmp_path: Path
) -> None:
    fill(redis_client, redis_server_url)
    before = contents(redis_client)
    backup(redis_client, tmp_path / "store.backup")
    BotRegistry(redis_client).register("latecomer")
    after = contents(redis_client)

    with pytest.raises(BackupError, match=r"the store is not empty \(\d+ keys\).*--replace"):
        restore(redis_client, tmp_path / "store.backup")
    assert contents(redis_client) == after  # untouched
    restore(redis_client, tmp_path / "store.backup", replace=True)
    assert contents(redis_client) == before  # the latecomer is gone


def test_live_workers_and_gateways_refuse_a_backup_unless_forced(
    redis_client: redis.Redis, tmp_path: Path, worker_registered: Worker
) -> None:
    redis_client.set(keys.bot_online("b1"), "session", ex=60)  # a gateway holds a stream
    with pytest.raises(BackupError) as refused:
        backup(redis_client, tmp_path / "store.backup")
    assert str(refused.value) == (
        "cannot back up while the store is written by 1 worker(s) (w-backup) and gateway(s) "
        "holding 1 bot stream(s): stop them, or pass --force"
    )
    assert not (tmp_path / "store.backup").exists()
    backup(redis_client, tmp_path / "store.backup", force=True)
    with pytest.raises(BackupError, match="cannot restore while the store is written by"):
        restore(redis_client, tmp_path / "store.backup", replace=True)
    restore(redis_client, tmp_path / "store.backup", replace=True, force=True)


def test_a_store_written_during_the_read_is_refused_or_marked_when_forced(
    redis_client: redis.Redis, redis_server_url: str, tmp_path: Path
) -> None:
    for n in range(2000):  # enough keys that the read takes several round trips
        redis_client.set(f"arena:test:{n}", n)
    stop = threading.Event()

    def write() -> None:  # a writer no check can see (neither a worker nor a gateway)
        writer = redis.Redis.from_url(redis_server_url)
        while not stop.is_set():
            writer.incr("arena:test:counter")

    thread = threading.Thread(target=write)
    thread.start()
    try:
        with pytest.raises(BackupError, match="the store changed while it was read"):
            backup(redis_client, tmp_path / "store.backup")
        assert not (tmp_path / "store.backup").exists()
        assert not backup(redis_client, tmp_path / "store.backup", force=True).consistent
    finally:
        stop.set()
        thread.join()


def damaged(path: Path, tmp_path: Path) -> dict[str, Path]:
    """Ways a backup file goes wrong, each a file of its own."""
    raw = path.read_bytes()
    lines = gzip.decompress(raw).splitlines(keepends=True)
    manifest = json.loads(lines[0])
    files = {
        "cut": raw[: len(raw) // 2],
        "not gzip": b"PK\x03\x04 a zip file, say",
        "no manifest": gzip.compress(b"".join(lines[1:])),
        "a key missing": gzip.compress(b"".join(lines[:-1])),
        "a bad line": gzip.compress(b"".join([*lines[:-1], b"not json\n"])),
        "another schema": gzip.compress(
            json.dumps({**manifest, "store_schema": 99}).encode() + b"\n" + b"".join(lines[1:])
        ),
        "a newer redis": gzip.compress(
            json.dumps({**manifest, "redis_version": "99.1.0"}).encode()
            + b"\n"
            + b"".join(lines[1:])
        ),
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    return {name: tmp_path / name for name in files}


def test_a_damaged_or_foreign_file_is_refused_before_the_store_is_touched(
    redis_client: redis.Redis, redis_server_url: str, tmp_path: Path
) -> None:
    fill(redis_client, redis_server_url)
    backup(redis_client, tmp_path / "good")
    files = damaged(tmp_path / "good", tmp_path)
    keys_before = len(contents(redis_client))
    expected = {
        "cut": "is damaged or not a backup (bad gzip data)",
        "not gzip": "is damaged or not a backup (bad gzip data)",
        "no manifest": "is not a Caper Arena backup (no manifest)",
        "a key missing": f"is damaged: {keys_before - 1} keys of the {keys_before} it announces",
        "a bad line": f"is damaged: line {keys_before + 1} is no key",
        "another schema": f"holds a store of schema 99 (arena 0.1.0); this arena uses schema "
        f"{keys.SCHEMA_VERSION}",
        "a newer redis": "the backup was made on Redis 99.1.0; this Redis is",
    }
    for name, path in files.items():
        with pytest.raises(BackupError) as refused:
            restore(redis_client, path, replace=True)
        assert expected[name] in str(refused.value), name
        assert "\n" not in str(refused.value)
    assert len(contents(redis_client)) == keys_before
    with pytest.raises(BackupError, match="no backup file"):
        read_manifest(tmp_path / "missing")


def test_the_commands_print_one_line_and_work_on_redis_url(
    redis_client: redis.Redis, redis_server_url: str, tmp_path: Path
) -> None:
    fill(redis_client, redis_server_url)
    before = contents(redis_client)
    env = {"REDIS_URL": redis_server_url, "COLUMNS": "200"}  # as a CronJob gives it
    target = str(tmp_path / "store.backup")
    made = CliRunner().invoke(main, ["backup", target], env=env)
    assert made.exit_code == 0, made.output
    assert made.output.startswith(f"Backed up {len(before)} keys (Redis ")
    refused = CliRunner().invoke(main, ["restore", target], env=env)
    assert refused.exit_code == 1
    assert refused.output.startswith("Error: the store is not empty")
    assert refused.output.count("\n") == 1 and "Traceback" not in refused.output
    redis_client.flushdb()
    done = CliRunner().invoke(main, ["restore", target], env=env)
    assert done.exit_code == 0 and done.output.startswith(f"Restored {len(before)} keys from")
    assert contents(redis_client) == before
    missing = CliRunner().invoke(main, ["restore", str(tmp_path / "nope")], env=env)
    assert missing.exit_code == 1
    assert missing.output == f"Error: no backup file {tmp_path / 'nope'}\n"


def test_an_idle_gateway_beating_its_heartbeat_counts_as_no_change(
    redis_client: redis.Redis, redis_server_url: str
) -> None:
    """`arena serve` with no bot connected writes only its heartbeat, once a second: a backup
    taken meanwhile must not take the beats for writes (nor retry, then refuse, forever)."""
    gateway = GatewayThread(GatewaySettings(redis_server_url, "127.0.0.1", 0)).start()
    try:
        beat = keys.gateway_beat(keys.gateway_wake("*"))
        assert wait_until(lambda: len(redis_client.keys(beat)) == 1, 30), "no heartbeat"
        before, first = changes_made(redis_client), redis_client.get(redis_client.keys(beat)[0])
        assert wait_until(lambda: redis_client.get(redis_client.keys(beat)[0]) != first, 30)
        assert changes_made(redis_client) == before
        redis_client.set("arena:test:written", 1)
        assert changes_made(redis_client) != before  # a write still shows
    finally:
        gateway.stop()
