"""RQ jobs and the worker entry point."""
