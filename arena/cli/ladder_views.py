"""Rich tables and progress lines for the ladder commands."""

from __future__ import annotations

import datetime
from typing import Any

import redis
from rich.console import Console
from rich.table import Table

from arena.store.ladders import LadderDefinition
from arena.store.ratings import RatingStore
from workers.matchmaker import Listener


def standings_table(
    client: redis.Redis, definition: LadderDefinition, by: str = "elo", limit: int = 50
) -> Table:
    ratings = RatingStore(client)
    rows = ratings.leaderboard(definition, by if by in ("glicko", "ordinal") else "elo", limit)
    total = ratings.player_count(definition)
    table = Table(title=f"Ladder {definition.ref}")
    for column in ("#", "bot", "Elo", "Glicko-2", "RD", "Weng-Lin", "games", "W-D-L", "win rate"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for rank, (name, s) in enumerate(rows, start=1):
        table.add_row(
            str(rank),
            name,
            f"{s.elo:.1f}",
            f"{s.rating:.1f}" + ("?" if s.provisional(definition.params) else ""),
            f"{s.rd:.1f}",
            f"{s.ordinal:.2f}",
            str(s.games),
            f"{s.wins}-{s.draws}-{s.losses}",
            f"{100 * s.win_rate:.0f}%",
        )
    shown = f"top {len(rows)} of {total}" if len(rows) < total else f"{total}"
    table.caption = (
        f"{shown} rated bots; '?' = provisional (RD > {definition.params.provisional_rd:g}); "
        "Weng-Lin = ordinal (mu - 3 sigma); "
        f"K={definition.params.k:g}, tau={definition.params.glicko.tau:g}"
    )
    return table


def history_table(client: redis.Redis, definition: LadderDefinition, bot: str) -> Table:
    entries = RatingStore(client).history(definition, bot)
    table = Table(title=f"{bot} on ladder {definition.ref}")
    for column in (
        "#",
        "when",
        "result",
        "opponent",
        "score",
        "Elo",
        "Glicko-2",
        "RD",
        "mu",
    ):
        table.add_column(column)
    for index, e in enumerate(entries, start=1):
        when = datetime.datetime.fromtimestamp(e["at"]).strftime("%Y-%m-%d %H:%M:%S")
        table.add_row(
            str(index),
            when,
            e["result"],
            e["opponent"],
            f"{e['score']:g}",
            f"{e['elo']:.1f}",
            f"{e['rating']:.1f}",
            f"{e['rd']:.1f}",
            f"{e['mu']:.1f}" if "mu" in e else "-",  # none in entries older than Weng-Lin
        )
    return table


def print_match(console: Console) -> Listener:
    """A matchmaker listener printing one line per finished or failed match."""

    def listen(job_id: str, players: tuple[str, str], status: str, result: Any) -> None:
        if status == "queued":
            return
        a, b = players
        if status != "finished" or not isinstance(result, dict):
            console.print(f"{job_id}: {a} vs {b} {status}")
            return
        line = f"{result['match_id']}: {a} {result['score']:g} - {1 - result['score']:g} {b}"
        if "elo" in result:
            (ea, eb), (da, db) = result["elo"], result["elo_change"]
            line += f"   Elo {a} {ea:.1f} ({da:+.1f}), {b} {eb:.1f} ({db:+.1f})"
        console.print(line)

    return listen
