"""Caper Arena: a tournament and engine-arena server for the Caper family of card games."""

__version__ = "0.1.0"
