"""The `arena` console script. The command line is part of the server, whose dependencies are the
`server` extra: an install of only what a bot needs (`pip install caper-arena`) has the script too,
and there it says in one line what to install instead of failing with a traceback."""

from __future__ import annotations

import sys

OUR_PACKAGES = frozenset({"arena", "bots_sdk", "workers"})
SERVER_INSTALL = "pip install 'caper-arena[server]'"


def main() -> None:
    try:
        from arena.cli import main as command_line
    except ModuleNotFoundError as error:
        missing = error.name or "a dependency"
        if missing.partition(".")[0] in OUR_PACKAGES:
            raise  # a broken install of our own code, not a missing extra: show where
        sys.exit(
            f"arena: the command line is part of the server, and {missing} is not installed: "
            f"{SERVER_INSTALL}"
        )
    command_line()
