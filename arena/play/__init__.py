"""Playing real encounters: seats for built-in, remote and program bots, a scheduled match or
table turned into records (`match.py`), local play (`local.py`) and the games' metrics."""
