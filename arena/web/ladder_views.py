"""View models of the ladder pages: pure functions from store values to grids and a chart.

A ladder of two-sided games shows Elo, Glicko-2 (with its 95% interval, rating +- 2 RD) and
Weng-Lin (mu +- sigma, and the ordinal mu - 3 sigma it is ranked by); a ladder of tables is
rated by Weng-Lin only, so it shows that and the placements (as `arena ladder standings`).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import redis

from arena.ratings.ladder import Standing
from arena.services.ladders import matches_note, rates
from arena.store.ladders import LadderDefinition, LadderStore
from arena.store.ratings import RatingStore
from arena.tournament.points_text import points_text
from arena.web import links
from arena.web.chart import Series, history_svg
from arena.web.grid import Cell, Grid, headers, num

Z95 = 1.96  # a 95% interval is the rating +- 1.96 standard deviations (Glicko's RD)


@dataclass(frozen=True, slots=True)
class LadderSummary:
    slug: str
    url: str
    title: str  # "main (caper rules v1)"
    game: str
    players: int  # seats at a game
    rates: str
    rated: int  # bots with a rated result
    state: str  # created, running or stopped


def summary(client: redis.Redis, definition: LadderDefinition) -> LadderSummary:
    ref = definition.ref
    return LadderSummary(
        ref.slug, links.ladder_url(ref.slug), str(ref), ref.game, definition.players,
        rates(definition), RatingStore(client).player_count(definition),
        LadderStore(client).state(ref).value,
    )  # fmt: skip


def board(definition: LadderDefinition) -> str:
    """Two-sided ladders rank by Elo; ladders of tables by the Weng-Lin ordinal."""
    return "ordinal" if definition.tables else "elo"


def standings(definition: LadderDefinition, rows: Sequence[tuple[str, Standing]]) -> Grid:
    slug = definition.ref.slug
    if definition.tables:
        return _table_standings(slug, rows)
    names = ["#", "bot", "Elo", "Glicko-2", "95% interval", "RD", "Weng-Lin", "mu ± sigma"]
    names += ["matches", "W-D-L", "win rate"]
    body = []
    for rank, (name, s) in enumerate(rows, start=1):
        provisional = "?" if s.provisional(definition.params) else ""
        body.append(
            (
                num(str(rank)),
                Cell(name, links.ladder_bot_url(slug, name)),
                num(f"{s.elo:.1f}"),
                num(f"{s.rating:.1f}{provisional}"),
                Cell(f"{s.rating - Z95 * s.rd:.0f} to {s.rating + Z95 * s.rd:.0f}", css="muted"),
                num(f"{s.rd:.1f}"),
                num(f"{s.ordinal:.2f}"),
                num(f"{s.mu:.2f} ± {s.sigma:.2f}"),
                num(str(s.games)),
                num(f"{s.wins}-{s.draws}-{s.losses}"),
                num(f"{100 * s.win_rate:.0f}%"),
            )
        )
    caption = (
        f"ranked by Elo; Glicko-2 95% interval = rating ± {Z95} RD; '?' = provisional "
        f"(RD > {definition.params.provisional_rd:g}); Weng-Lin = ordinal (mu - 3 sigma); "
        + matches_note(definition)
    )
    numeric = [n for n in names if n not in ("bot", "95% interval")]
    wide = ("95% interval", "RD", "Weng-Lin", "mu ± sigma", "matches")
    return Grid(headers(names, numeric), tuple(body), caption, dom_id="ladder", wide=wide)


def _table_standings(slug: str, rows: Sequence[tuple[str, Standing]]) -> Grid:
    names = ["#", "bot", "Weng-Lin", "mu ± sigma", "tables", "1st-shared-other", "beaten"]
    body = tuple(
        (
            num(str(rank)),
            Cell(name, links.ladder_bot_url(slug, name)),
            num(f"{s.ordinal:.2f}"),
            num(f"{s.mu:.2f} ± {s.sigma:.2f}"),
            num(str(s.games)),
            num(f"{s.wins}-{s.draws}-{s.losses}"),
            num(f"{100 * s.score_rate:.0f}%"),
        )
        for rank, (name, s) in enumerate(rows, start=1)
    )
    caption = (
        "tables rated by Weng-Lin only (ordinal = mu - 3 sigma); beaten = mean share of the "
        "other entrants finished ahead of"
    )
    numeric = [n for n in names if n != "bot"]
    wide = ("mu ± sigma", "tables")
    return Grid(headers(names, numeric), body, caption, dom_id="ladder", wide=wide)


def bot_ratings(bot: str, rated: Sequence[tuple[LadderDefinition, Standing]]) -> Grid:
    """One bot's standing on each ladder it played, as that ladder's page shows it (a ladder
    of tables rates by Weng-Lin only), each linked to its page of the bot on that ladder."""
    names = ["ladder", "Elo", "Glicko-2", "95% interval", "Weng-Lin", "mu ± sigma", "matches"]
    names += ["W-D-L"]
    body = []
    for definition, s in rated:
        two_sided = not definition.tables
        provisional = "?" if s.provisional(definition.params) else ""
        interval = f"{s.rating - Z95 * s.rd:.0f} to {s.rating + Z95 * s.rd:.0f}"
        body.append(
            (
                Cell(str(definition.ref), links.ladder_bot_url(definition.ref.slug, bot)),
                num(f"{s.elo:.1f}" if two_sided else "-"),
                num(f"{s.rating:.1f}{provisional}" if two_sided else "-"),
                Cell(interval if two_sided else "-", css="muted"),
                num(f"{s.ordinal:.2f}"),
                num(f"{s.mu:.2f} ± {s.sigma:.2f}"),
                num(str(s.games)),
                num(f"{s.wins}-{s.draws}-{s.losses}"),
            )
        )
    caption = "Weng-Lin = ordinal (mu - 3 sigma); a ladder of tables is rated by it only"
    numeric = [n for n in names if n not in ("ladder", "95% interval")]
    wide = ("95% interval", "mu ± sigma", "matches", "W-D-L")
    return Grid(headers(names, numeric), tuple(body), caption, dom_id="ratings", wide=wide)


def when(at: float) -> str:
    return datetime.datetime.fromtimestamp(at, datetime.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def history(definition: LadderDefinition, entries: Sequence[Mapping[str, Any]], bot: str) -> Grid:
    """Every rated result of `bot`, newest first, each linked to its first game (a ladder
    match's game ids are its result id plus ".g<index>", and every match has a game 0) and, on
    a ladder of two sides, its opponent to their head-to-head page."""
    ratings = ["place", "mu", "sigma"] if definition.tables else ["Elo", "Glicko-2", "RD", "mu"]
    names = ["#", "when", "opponent", "score", *ratings, "game"]
    body = []
    for index, e in reversed(list(enumerate(entries, start=1))):
        values = _rating_texts(definition, e)
        body.append(
            (
                num(str(index)),
                Cell(when(float(e["at"])), css="muted"),
                Cell(str(e["opponent"]), _versus(definition, bot, str(e["opponent"]))),
                num(points_text(float(e["score"]))),
                *(num(v) for v in values),
                Cell("replay", links.game_url(f"{e['result']}.g0")),
            )
        )
    return Grid(headers(names, [*ratings, "#", "score"]), tuple(body), dom_id="history")


def _versus(definition: LadderDefinition, bot: str, opponent: str) -> str | None:
    return None if definition.tables else links.head_to_head_url(bot, opponent)


def _rating_texts(definition: LadderDefinition, e: Mapping[str, Any]) -> list[str]:
    mu = f"{e.get('mu', 0.0):.2f}"  # none in entries older than Weng-Lin
    if definition.tables:
        return [str(e.get("place", "-")), mu, f"{e.get('sigma', 0.0):.2f}"]
    return [f"{e['elo']:.1f}", f"{e['rating']:.1f}", f"{e['rd']:.1f}", mu]


def chart(definition: LadderDefinition, bot: str, entries: Sequence[Mapping[str, Any]]) -> str:
    """The bot's ratings after each result: Glicko-2 with its 95% band and Elo, or for a ladder
    of tables Weng-Lin's mu with a band of 2 sigma."""
    if definition.tables or not entries:
        mus = tuple(float(e.get("mu", 0.0)) for e in entries)
        spread = tuple(2 * float(e.get("sigma", 0.0)) for e in entries)
        series = [Series("Weng-Lin mu ± 2 sigma", mus, spread)]
    else:
        glicko = tuple(float(e["rating"]) for e in entries)
        band = tuple(Z95 * float(e["rd"]) for e in entries)
        elo = tuple(float(e["elo"]) for e in entries)
        series = [
            Series("Glicko-2 (95% band)", glicko, band),
            Series("Elo", elo, tuple(0.0 for _ in elo), css="line2"),
        ]
    return history_svg(series, f"{bot}: rating history on {definition.ref}")
