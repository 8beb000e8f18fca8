"""`arena ...` run in process against one Redis, and the check that a command was refused: exit
code 1, the message (line breaks folded), no traceback. Shared by the lifecycle tests of events,
ladders and SPRT tests."""

from __future__ import annotations

from click.testing import CliRunner, Result

from arena.cli import main


def arena(url: str, *args: str) -> Result:
    return CliRunner().invoke(main, [*args], catch_exceptions=False, env={"REDIS_URL": url})


def refused(url: str, message: str, *args: str) -> None:
    out = arena(url, *args)
    assert out.exit_code == 1 and message in out.output.replace("\n", " "), out.output
    assert "Traceback" not in out.output
