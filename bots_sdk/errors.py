"""What `run` raises when reconnecting cannot help."""

from __future__ import annotations


class ArenaError(Exception):
    """Base of the SDK's errors."""


class AuthenticationError(ArenaError):
    """The arena refused the token (gRPC UNAUTHENTICATED or PERMISSION_DENIED).

    Never retried: the same token would be refused again, and hammering a gateway with a bad
    secret looks like an attack."""


class ProtocolError(ArenaError):
    """The arena and the SDK do not speak the same protocol (version refused, a service that is
    not a bot gateway, a message the arena calls a protocol violation)."""
