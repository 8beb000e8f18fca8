"""Redis answers `bytes | str` in its types; the arena's clients never decode, so these narrow."""

from __future__ import annotations


def as_text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def as_bytes(value: bytes | str) -> bytes:
    return value if isinstance(value, bytes) else value.encode()
