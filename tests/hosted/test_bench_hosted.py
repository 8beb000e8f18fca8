"""`arena bench hosted` prints its figures (never asserted) for both paths."""

from __future__ import annotations

from arena.bench.hosted import run


def test_bench_hosted_reports_starts_and_round_trips() -> None:
    lines: list[str] = []
    run(lines.append, starts=1, games=1)
    assert [line.split(":")[0] for line in lines] == [
        "start to first message (sandboxed, /usr/bin/python3)",
        "start to first message (no sandbox, /usr/bin/python3)",
        "program over stdio",
        "built-in random",
    ]
    assert all("p50" in line for line in lines)
