"""The codec's own error, in a module of its own so that each game's codec module can raise it
without importing the package's generic API (`arena.codec`, which imports them)."""

from __future__ import annotations


class CodecError(ValueError):
    """A message parsed but describes no engine value (e.g. an observation with three sides)."""
