"""`arena bench hosted` and `arena bench hosted-swiss` print their figures (never asserted)
for both paths."""

from __future__ import annotations

import redis

from arena.bench import hosted_swiss
from arena.bench.hosted import run
from arena.store.bots import BotRegistry


def test_bench_hosted_reports_starts_and_round_trips() -> None:
    lines: list[str] = []
    run(lines.append, starts=1, games=1)
    assert [line.split(":")[0] for line in lines] == [
        "start to first message (sandboxed, /usr/bin/python3)",
        "start to first message (no sandbox, /usr/bin/python3)",
        "start to first message (sandboxed, /bin/sh)",
        "start to first message (no sandbox, /bin/sh)",
        "program over stdio",
        "built-in random",
    ]
    assert all("p50" in line for line in lines)


def test_bench_hosted_swiss_plays_both_fields_and_leaves_no_hosted_bot_playable(
    redis_server_url: str, redis_client: redis.Redis
) -> None:
    figures = hosted_swiss.run(redis_server_url, entrants=4, workers=1, rounds=2, games_per_match=2)
    assert [row.label for row in figures] == ["hosted random", "built-in random"]
    assert [(row.matches, row.games) for row in figures] == [(4, 8), (4, 8)]
    assert all(bot.revoked is not None for bot in BotRegistry(redis_client).all())
    lines: list[str] = []
    hosted_swiss.report(figures, 1, lines.append)
    assert all("games/s" in line and "4-entrant Swiss on 1 workers" in line for line in lines)
