"""Serving /metrics: from `arena serve` (next to the gateway) or the standalone `arena metrics`.

Every value comes from Redis, so each replica reports the same cluster-wide numbers: scrape one
of them, or aggregate with max() across replicas (the Grafana dashboard does).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import redis
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry
from prometheus_client.exposition import ThreadingWSGIServer

from arena.listening import EXPORTER_PORT, LOOPBACK, bind_error_message
from arena.metrics.collector import DEFAULT_TOP_N, ArenaCollector

SCRAPE_PATIENCE_S = 5.0  # a scrape waits out a Redis restart this long, inside Prometheus' 10 s

StartResponse = Callable[[str, list[tuple[str, str]]], Any]


def arena_registry(client: redis.Redis, top_n: int = DEFAULT_TOP_N) -> CollectorRegistry:
    """A registry holding only the arena's collector (no process metrics of this replica)."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(ArenaCollector(client, top_n))
    return registry


def exposition(client: redis.Redis, top_n: int = DEFAULT_TOP_N) -> bytes:
    """One scrape's text, as /metrics serves it."""
    return ArenaCollector(client, top_n).exposition()


def metrics_app(
    client: redis.Redis, top_n: int = DEFAULT_TOP_N
) -> Callable[[dict[str, Any], StartResponse], Iterable[bytes]]:
    """A WSGI app answering /metrics (and /) with the Prometheus text format."""
    collector = ArenaCollector(client, top_n)

    def app(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("PATH_INFO", "/") not in ("/", "/metrics"):
            start_response("404 Not Found", [("Content-Type", "text/plain")])
            return [b"only /metrics here\n"]
        body = collector.exposition()
        start_response(
            "200 OK", [("Content-Type", CONTENT_TYPE_LATEST), ("Content-Length", str(len(body)))]
        )
        return [body]

    return app


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """Scrapes every few seconds would flood the log."""


@dataclass
class MetricsServer:
    server: WSGIServer
    thread: threading.Thread

    @property
    def port(self) -> int:
        return int(self.server.server_port)

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)


def start_metrics_server(
    client: redis.Redis,
    host: str = LOOPBACK,
    port: int = EXPORTER_PORT,
    top_n: int = DEFAULT_TOP_N,
    port_option: str = "--port",
) -> MetricsServer:
    """/metrics on a daemon thread, one thread per scrape; port 0 picks a free port. An address
    that cannot be bound is an OSError naming it (and `port_option`, the way to pick another)."""
    app = metrics_app(client, top_n)
    try:
        server = make_server(host, port, app, ThreadingWSGIServer, handler_class=_QuietHandler)
    except OSError as error:
        raise OSError(bind_error_message(host, port, error, port_option)) from None
    thread = threading.Thread(target=server.serve_forever, daemon=True, name="metrics")
    thread.start()
    return MetricsServer(server, thread)
