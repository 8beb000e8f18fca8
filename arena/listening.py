"""Where the arena's servers listen (the gateway's gRPC, /metrics, the web site): on the loopback
address unless told otherwise, and one wording for an address that cannot be bound."""

from __future__ import annotations

import errno

LOOPBACK = "127.0.0.1"  # a server is reachable from elsewhere only when asked (`--host 0.0.0.0`)

# Default ports, all different, so every server runs on one machine with its defaults.
GATEWAY_PORT = 50051  # gRPC: bots and ArenaService
GATEWAY_METRICS_PORT = 9101  # `arena serve --metrics-port`: /metrics beside a gateway
EXPORTER_PORT = 9100  # `arena metrics`: the standalone /metrics exporter
WEB_PORT = 8080  # `arena web`


def address_text(host: str, port: int) -> str:
    """`host:port`, with an IPv6 host in brackets."""
    bare = host.strip("[]")
    return f"[{bare}]:{port}" if ":" in bare else f"{bare}:{port}"


def bind_error_message(host: str, port: int, error: OSError, port_option: str) -> str:
    """One line naming the address and, for a port in use, the option that picks another."""
    if error.errno == errno.EADDRINUSE:
        why = f"the address is already in use: stop what holds it or choose another {port_option}"
    else:
        why = error.strerror or str(error)
    return f"cannot listen on {address_text(host, port)}: {why}"
