"""Redis: every key name in `keys`, one repository per concept, idempotent writes."""
