"""`arena play "cmd:..."`: a local program against a built-in bot, sandboxed by default."""

from __future__ import annotations

import pytest
from click.testing import CliRunner, Result

from arena.cli import main
from tests.hosted.programs import PLAIN, program_folder


def arena(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.mark.parametrize("sandbox", [[], ["--no-sandbox"]])
def test_play_runs_a_local_program_for_every_game(
    sandbox: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with program_folder(PLAIN) as folder:
        monkeypatch.chdir(folder)
        out = arena("play", "cmd:python3 bot.py", "greedy", "-n", "3", *sandbox)
    assert out.exit_code == 0, out.output
    assert "3 games" in out.output and "B: greedy" in out.output
    assert "stopped playing" not in out.output


def test_a_program_that_dies_is_reported_with_its_stderr(monkeypatch: pytest.MonkeyPatch) -> None:
    body = "def act(request):\n    raise RuntimeError('my bug')\n"
    with program_folder(body) as folder:
        monkeypatch.chdir(folder)
        out = arena("play", "cmd:python3 bot.py", "random", "-n", "2")
    assert out.exit_code == 0, out.output
    assert "stopped playing: it exited with code 1" in out.output
    assert "RuntimeError: my bug" in out.output


@pytest.mark.parametrize(
    ("name", "message"),
    [("cmd:", "names no command"), ("cmd:python3 'unclosed", "cannot read the command")],
)
def test_a_bad_command_is_one_line(name: str, message: str) -> None:
    out = arena("play", name, "random")
    assert out.exit_code == 1
    assert message in out.output and "Traceback" not in out.output
