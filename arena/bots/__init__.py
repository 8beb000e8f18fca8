"""Built-in bots that run inside the worker, with no network hop."""
