"""The Python SDK for bot authors."""
