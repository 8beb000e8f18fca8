"""Rich tables and progress lines for the ladder commands.

A ladder of two-sided games (2 players, or 4-player teams) shows Elo, Glicko-2 and Weng-Lin; a
ladder of tables (the Snitch game, three sides) is rated by Weng-Lin only, so it shows Weng-Lin
and each bot's placements, and refuses an Elo or Glicko-2 order rather than sort by values that
never move.
"""

from __future__ import annotations

import datetime
from typing import Any

import redis
from rich.console import Console
from rich.table import Table

from arena.ratings.ladder import Standing
from arena.services.ladders import board_for, matches_note, rates
from arena.store.ladders import LadderDefinition
from arena.store.ratings import RatingStore
from arena.tournament.points_text import points_text
from workers.matchmaker import Listener


def standings_table(
    client: redis.Redis, definition: LadderDefinition, by: str | None = None, limit: int = 50
) -> Table:
    ratings = RatingStore(client)
    rows = ratings.leaderboard(definition, board_for(definition, by), limit)
    total = ratings.player_count(definition)
    table = _table_standings(rows) if definition.tables else _pair_standings(rows, definition)
    shown = f"top {len(rows)} of {total}" if len(rows) < total else f"{total}"
    table.title = f"Ladder {definition.ref}"
    notes = [f"{shown} rated bots", rates(definition)]
    if not definition.tables:
        notes.append(f"'?' = provisional (RD > {definition.params.provisional_rd:g})")
        notes.append("Weng-Lin = ordinal (mu - 3 sigma)")
        notes.append(matches_note(definition))
    table.caption = "; ".join(notes)
    return table


def _pair_standings(rows: list[tuple[str, Standing]], definition: LadderDefinition) -> Table:
    table = Table()
    for column in ("#", "bot", "Elo", "Glicko-2", "RD", "Weng-Lin", "matches", "W-D-L", "win%"):
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
    return table


def _table_standings(rows: list[tuple[str, Standing]]) -> Table:
    """Weng-Lin, and the tables: firsts alone, shared firsts, others; the mean share of the
    other entrants beaten (1 = ahead of everyone at every table)."""
    table = Table()
    columns = ("#", "bot", "Weng-Lin", "mu", "sigma", "tables", "1st-shared-other", "beaten")
    for column in columns:
        table.add_column(column, justify="left" if column == "bot" else "right")
    for rank, (name, s) in enumerate(rows, start=1):
        table.add_row(
            str(rank),
            name,
            f"{s.ordinal:.2f}",
            f"{s.mu:.2f}",
            f"{s.sigma:.2f}",
            str(s.games),
            f"{s.wins}-{s.draws}-{s.losses}",
            f"{100 * s.score_rate:.0f}%",
        )
    return table


def history_table(client: redis.Redis, definition: LadderDefinition, bot: str) -> Table:
    entries = RatingStore(client).history(definition, bot)
    table = Table(title=f"{bot} on ladder {definition.ref}")
    ratings = ("place", "mu", "sigma") if definition.tables else ("Elo", "Glicko-2", "RD", "mu")
    for column in ("#", "when", "result", "opponent", "score", *ratings):
        table.add_column(column)
    for index, e in enumerate(entries, start=1):
        when = datetime.datetime.fromtimestamp(e["at"]).strftime("%Y-%m-%d %H:%M:%S")
        mu = f"{e['mu']:.1f}" if "mu" in e else "-"  # none in entries older than Weng-Lin
        if definition.tables:
            values = [f"{e.get('place', '-')}", mu, f"{e.get('sigma', 0.0):.2f}"]
        else:
            values = [f"{e['elo']:.1f}", f"{e['rating']:.1f}", f"{e['rd']:.1f}", mu]
        score = points_text(e["score"])
        table.add_row(str(index), when, e["result"], e["opponent"], score, *values)
    return table


def print_match(console: Console) -> Listener:
    """A matchmaker listener printing one line per finished or failed match or table."""

    def listen(job_id: str, players: tuple[str, ...], status: str, result: Any) -> None:
        if status == "queued":
            return
        if isinstance(result, dict) and result.get("stopped"):
            console.print(f"{job_id}: {' vs '.join(players)} not played: the ladder is stopped")
        elif status != "finished" or not isinstance(result, dict):
            console.print(f"{job_id}: {' vs '.join(players)} {status}")
        elif "points" in result or len(players) > 2:
            console.print(_table_line(players, result))
        else:
            console.print(_pair_line(players, result))

    return listen


def _pair_line(players: tuple[str, ...], result: dict[str, Any]) -> str:
    a, b = players
    if "score" not in result:
        return f"{result['match_id']}: {a} vs {b} was rated already"
    score = result["score"]
    line = f"{result['match_id']}: {a} {points_text(score)} - {points_text(1 - score)} {b}"
    if "elo" in result:
        (ea, eb), (da, db) = result["elo"], result["elo_change"]
        line += f"   Elo {a} {ea:.1f} ({da:+.1f}), {b} {eb:.1f} ({db:+.1f})"
    return line


def _table_line(players: tuple[str, ...], result: dict[str, Any]) -> str:
    """The table's placement points (1 = first at every game) and the Weng-Lin ordinals."""
    if "points" not in result:
        return f"{result['match_id']}: {', '.join(players)} was rated already"
    points = ", ".join(f"{p} {x:.2f}" for p, x in zip(players, result["points"], strict=True))
    line = f"{result['match_id']}: {points}"
    if "ordinal" in result:
        moves = zip(players, result["ordinal"], result["ordinal_change"], strict=True)
        line += "   Weng-Lin " + ", ".join(f"{p} {o:.2f} ({d:+.2f})" for p, o, d in moves)
    return line
