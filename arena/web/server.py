"""Serving the site with uvicorn: in the foreground (`arena web`) or in a background thread
(`arena demo`, the browser tests' own fixture aside).

The socket is bound here before uvicorn starts, so a port already taken is one clear error
rather than uvicorn's log line and exit, and port 0 picks a free port whose URL is known.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import redis
import uvicorn

from arena.listening import bind_error_message
from arena.web.app import create_app
from arena.web.signer import WebSettings

START_TIMEOUT_S = 20.0
__all__ = ["WebError", "WebSettings", "bind", "check_redis", "serve_forever", "serving", "url_of"]


class WebError(OSError):
    """The site cannot be served; the message says why and what to do."""


def bind(host: str, port: int) -> socket.socket:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        raise WebError(f"cannot serve on host {host!r}: {error.strerror}") from None
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as error:
        sock.close()
        raise WebError(bind_error_message(host, port, error, "--port")) from None
    sock.listen(2048)  # connections made before uvicorn starts wait in the backlog
    return sock


def check_redis(client: redis.Redis, url: str) -> None:
    try:
        client.ping()
    except redis.RedisError as error:
        raise WebError(f"Redis at {url} is unreachable: {error}") from None


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def _server(
    client: redis.Redis, settings: WebSettings | None = None, *, in_process: bool = False
) -> uvicorn.Server:
    # Inside another program (the demo, tests), uvicorn must not point its loggers at the
    # sys.stderr of the moment: a captured stream closed later would break every later log line.
    config = uvicorn.Config(
        create_app(client, settings),
        log_level="warning",
        lifespan="off",
        access_log=False,
        log_config=None if in_process else uvicorn.config.LOGGING_CONFIG,
    )
    return uvicorn.Server(config)


def serve_forever(
    client: redis.Redis, sock: socket.socket, settings: WebSettings | None = None
) -> None:
    """Serve until Ctrl-C or SIGTERM (uvicorn handles both and shuts down cleanly)."""
    try:
        _server(client, settings).run(sockets=[sock])
    finally:
        sock.close()


@contextmanager
def serving(
    client: redis.Redis,
    host: str = "127.0.0.1",
    port: int = 0,
    settings: WebSettings | None = None,
) -> Iterator[str]:
    """The site in a background thread for the block's duration; yields its URL."""
    with serving_on(client, bind(host, port), settings) as url:
        yield url


@contextmanager
def serving_on(
    client: redis.Redis, sock: socket.socket, settings: WebSettings | None = None
) -> Iterator[str]:
    """`serving` on a socket bound already (`bind`); it is closed on the way out."""
    server = _server(client, settings, in_process=True)
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, name="arena-web", daemon=True
    )
    thread.start()
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise WebError("the web site did not start (see the log above)")
            time.sleep(0.02)
        yield url_of(sock)
    finally:
        server.should_exit = True
        thread.join(START_TIMEOUT_S)
        sock.close()
