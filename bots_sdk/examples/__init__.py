"""Runnable example bots."""
