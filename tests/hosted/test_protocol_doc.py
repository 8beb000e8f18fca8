"""docs/program-protocol.md's full exchange is still what the arena and a program send."""

from __future__ import annotations

from pathlib import Path

from tests.hosted.exchange import exchange

DOC = Path(__file__).resolve().parents[2] / "docs" / "program-protocol.md"


def documented_exchange() -> list[str]:
    block = DOC.read_text().split("<!-- exchange -->\n```\n", 1)[1].split("```", 1)[0]
    return block.splitlines()


def test_the_documented_exchange_is_what_a_real_run_sends() -> None:
    documented = documented_exchange()
    assert documented[0].startswith('< {"hello"') and documented[-1].startswith('> {"gameOver"')
    assert exchange() == documented
